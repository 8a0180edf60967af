import { TableDnsRecords } from '../../adapters/dns/table-dns-records.js';
import { provide } from '../container.js';
import { standInTableOf } from './local-stand-in-table.js';

/** The local runtime's DNS records in the table: what its dev routes publish and its resolver answers. */
export const localDnsRecords = provide('localDnsRecords', (c) => {
  const { db, tableName } = standInTableOf(c);
  return new TableDnsRecords(db, tableName);
});
