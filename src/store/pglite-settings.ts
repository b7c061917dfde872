import { PGlite } from '@electric-sql/pglite'

/**
 * Postgres settings for the embedded store. PGlite runs Postgres inside the service's own process, so its
 * buffer pool is the service's memory: the default 128 MB pool (touched as tables are read) plus WAL buffers
 * cost ~150 MiB of resident memory that the in-memory books need more. The store holds accounts, keys, alert
 * rules and spread history, read by key or by one pair's time range; reads that miss the pool still hit the
 * operating system's page cache (PGlite's data directory is a real directory), so a small pool costs little.
 * Measured in one process over 100,000 history rows: RSS 363 MiB with the defaults, 201 MiB with these.
 */
export const PGLITE_START_PARAMS: readonly string[] = [
  ...PGlite.defaultStartParams,
  '-c',
  'shared_buffers=16MB',
  '-c',
  'temp_buffers=2MB',
  '-c',
  'work_mem=2MB',
  '-c',
  'maintenance_work_mem=16MB',
]
