process.env['POWERTOOLS_LOG_LEVEL'] = 'WARN';
const { startLocalRuntime } = await import('./local/runtime.js');
const { getDeps } = await import('./shared/composition.js');
const { createClient } = await import('./shared/domain/clients/create-client.js');
const { benchContacts } = await import('./scripts/bench/scenarios.js');
const rt = await startLocalRuntime({ port: 0, dynamoPort: 0, sesPort: 0 });
try {
  const deps = getDeps();
  const t0 = performance.now();
  const log = (m: string) => console.log(`${(performance.now() - t0).toFixed(0).padStart(6)} ms  ${m}`);
  for (const name of ['findIdsByEmail', 'findIdsByUid', 'getMany', 'writeMany', 'customFieldIds'] as const) {
    const c = deps.contacts as any; const orig = c[name].bind(c);
    c[name] = async (...a: any[]) => { log(`start ${name}`); const r = await orig(...a); log(`end ${name}`); return r; };
  }
  const idsOrig = deps.ids.next.bind(deps.ids);
  (deps.ids as any).next = async (...a: any[]) => { log('start ids'); const r = await idsOrig(...(a as [any])); log('end ids'); return r; };
  for (let run = 0; run < 3; run++) {
    const key = (await createClient(deps, { email: `p${run}@x.co`, name: 'P' })).api_key;
    const body = JSON.stringify({ contacts: benchContacts(1000) });
    log('--- request');
    const res = await fetch(`${rt.baseUrl}/client/contacts/bulk`, { method: 'POST', headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' }, body });
    const j = await res.json();
    log(`--- response ${res.status} ${JSON.stringify(j.meta)}`);
  }
} finally { await rt.stop(); }
