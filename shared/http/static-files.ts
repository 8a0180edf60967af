import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { gzipSync } from 'node:zlib';
import Negotiator from 'negotiator';

/**
 * Files of an npm package that a function serves as they are (the API reference's renderer). They are never bundled
 * into the function's JavaScript: infra copies them beside the bundle (`assets/`, see infra/node-function.ts), and the
 * local runtime and the tests read them from node_modules. Read on first request, then kept (and gzipped once).
 */
export interface StaticPackage {
  /** The npm package the files come from, e.g. `swagger-ui-dist`; or `.` for files of this project, under `dir`. */
  package: string;
  /** With `package: '.'`: the project folder the files are in, e.g. `docs`. */
  dir?: string;
  /** The files served: name → media type. */
  files: Readonly<Record<string, string>>;
}

/** Where a served file is in the source tree, relative to the project root (infra copies it from there). */
export const sourcePathOf = (source: StaticPackage, name: string): string =>
  source.package === '.' ? `${source.dir ?? '.'}/${name}` : `node_modules/${source.package}/${name}`;

/** The project root, from this module (shared/http/). */
const PROJECT_ROOT_URL = new URL('../../', import.meta.url);

/** The folder beside the bundle that infra copies the files into. */
export const STATIC_DIR = 'assets';

export interface ServedFile {
  contentType: string;
  body: string;
  base64: boolean;
}

export class StaticFiles {
  private readonly loaded = new Map<string, Promise<{ raw: Buffer; gzipped: Buffer }>>();

  constructor(
    private readonly source: StaticPackage,
    /** Where the bundle's `assets/` would be: the module's own URL (the bundle on Lambda). */
    private readonly moduleUrl: string,
  ) {}

  has(name: string): boolean {
    return Object.hasOwn(this.source.files, name);
  }

  /** The file's text, read once (undefined for a name that is not served). */
  async text(name: string): Promise<string | undefined> {
    if (!this.has(name)) return undefined;
    return (await this.entry(name)).raw.toString('utf8');
  }

  /** The file, gzipped when the client accepts it; undefined for a name that is not served. */
  async get(name: string, acceptsGzip: boolean): Promise<ServedFile | undefined> {
    if (!this.has(name)) return undefined;
    const { raw, gzipped } = await this.entry(name);
    const contentType = this.source.files[name]!;
    return acceptsGzip
      ? { contentType, body: gzipped.toString('base64'), base64: true }
      : { contentType, body: raw.toString('utf8'), base64: false };
  }

  private entry(name: string): Promise<{ raw: Buffer; gzipped: Buffer }> {
    let entry = this.loaded.get(name);
    if (!entry) {
      entry = this.read(name).then((raw) => ({ raw, gzipped: gzipSync(raw, { level: 9 }) }));
      this.loaded.set(name, entry);
      entry.catch(() => this.loaded.delete(name));
    }
    return entry;
  }

  private async read(name: string): Promise<Buffer> {
    try {
      return await readFile(new URL(`${STATIC_DIR}/${name}`, this.moduleUrl));
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
      // Not beside a bundle: the local runtime and the tests, with the source tree and node_modules at hand.
      if (this.source.package === '.') return readFile(new URL(sourcePathOf(this.source, name), PROJECT_ROOT_URL));
      return readFile(createRequire(this.moduleUrl).resolve(`${this.source.package}/${name}`));
    }
  }
}

/** Whether the request's Accept-Encoding allows gzip (negotiator reads q-values, `*` and `identity` as RFC 9110 says). */
export function acceptsGzip(acceptEncoding: string | undefined): boolean {
  if (!acceptEncoding) return false;
  return new Negotiator({ headers: { 'accept-encoding': acceptEncoding } }).encodings(['gzip']).includes('gzip');
}
