import { TableDnsRecords } from '../../adapters/dns/table-dns-records.js';
import { provide } from '../container.js';
import { tableOf } from './table.js';

/** The local runtime's DNS records in the table: what its dev routes publish and its resolver answers. */
export const localDnsRecords = provide(
  'localDnsRecords',
  (c) => new TableDnsRecords(tableOf(c).db, tableOf(c).tableName),
);
