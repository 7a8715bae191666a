/**
 * Count designs (PostgreSQL only): how a kept count that every save raises holds up under
 * concurrent saves, measured with the driver alone on a database of its own. Each transaction
 * inserts a save's row and then raises twelve counts (six conditions, a day and all time), as a
 * save did, in one of three ways:
 *
 * - in place: `n = n + 1` on the twelve rows, sorted (the design before issue 35);
 * - sharded: the same on one of 16 copies of each row, drawn per transaction (the rows summed on
 *   read);
 * - deltas: twelve inserted rows, summed on read and folded in later (the design chosen).
 *
 * Prints the transactions a second and the share of pg_stat_activity samples (every 50 ms)
 * waiting on a lock, with the 1-minute load average.
 *
 *   node bench/count-designs.ts [--seconds 5] [--clients 16,64]
 */
import { parseArgs } from 'node:util';
import pg from 'pg';
import { describeMachine, emptyFixture, loadNow } from './harness.ts';

const { values } = parseArgs({
  options: {
    seconds: { type: 'string', default: '5' },
    clients: { type: 'string', default: '16,64' },
  },
});
const seconds = Number(values.seconds);
const clientCounts = values.clients.split(',').map(Number);
const shards = 16;
const conditions = ['Asthma', 'CKD', 'DM2', 'HIV', 'Hypertension', 'TB'];

type Design = 'in place' | 'sharded' | 'deltas';

/** The twelve keys a save raises: each condition on the day and all time. */
const keys = conditions.flatMap((condition) => [
  ['*', condition],
  ['2026-11-28', condition],
]);

async function prepare(client: pg.Client): Promise<void> {
  await client.query(`create table saves (id bigserial primary key, at timestamptz not null,
    body text not null)`);
  await client.query(`create table counts (local_date text, condition text, shard integer,
    n bigint not null, primary key (local_date, condition, shard))`);
  await client.query(`create table count_deltas (local_date text not null,
    condition text not null, n bigint not null)`);
}

function countWrite(design: Design): { text: string; values: unknown[] } {
  const shard = design === 'sharded' ? Math.floor(Math.random() * shards) : 0;
  if (design === 'deltas') {
    const tuples = keys.map((_, index) => `($${2 * index + 1}, $${2 * index + 2}, 1)`);
    return {
      text: `insert into count_deltas (local_date, condition, n) values ${tuples.join(', ')}`,
      values: keys.flat(),
    };
  }
  const tuples = keys.map((_, index) => `($${2 * index + 1}, $${2 * index + 2}, ${shard}, 1)`);
  return {
    text: `insert into counts (local_date, condition, shard, n) values ${tuples.join(', ')}
      on conflict (local_date, condition, shard) do update set n = counts.n + 1`,
    values: keys.flat(),
  };
}

async function run(
  url: string,
  database: string,
  design: Design,
  clients: number,
): Promise<{ perSecond: number; lockShare: number; load: string }> {
  const pool = new pg.Pool({ connectionString: url, max: clients, application_name: 'designs' });
  // The database is dropped (with force) after the run; a pool connection ended then is no fault.
  pool.on('error', () => undefined);
  const until = performance.now() + seconds * 1000;
  let done = 0;
  const worker = async () => {
    const client = await pool.connect();
    try {
      while (performance.now() < until) {
        await client.query('begin');
        await client.query('insert into saves (at, body) values (now(), $1)', ['x'.repeat(400)]);
        const write = countWrite(design);
        await client.query(write.text, write.values);
        await client.query('commit');
        done++;
      }
    } finally {
      client.release();
    }
  };
  const sampler = new pg.Client({ connectionString: url });
  await sampler.connect();
  let busy = 0;
  let locked = 0;
  let sampling = true;
  const samples = (async () => {
    while (sampling) {
      const { rows } = await sampler.query<{ wait_event_type: string | null }>(
        `select wait_event_type from pg_stat_activity
        where datname = $1 and application_name = 'designs' and state <> 'idle'`,
        [database],
      );
      busy += rows.length;
      locked += rows.filter((row) => row.wait_event_type === 'Lock').length;
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  })();
  const loadBefore = loadNow();
  const started = performance.now();
  await Promise.all(Array.from({ length: clients }, worker));
  const perSecond = done / ((performance.now() - started) / 1000);
  sampling = false;
  await samples;
  await sampler.end();
  await pool.end();
  return {
    perSecond,
    lockShare: busy === 0 ? 0 : locked / busy,
    load: `${loadBefore.toFixed(1)} → ${loadNow().toFixed(1)}`,
  };
}

console.log(`Machine: ${describeMachine()}`);
console.log('\n| design | clients | transactions/s | lock waits | load |');
console.log('| --- | ---: | ---: | ---: | ---: |');
for (const clients of clientCounts) {
  for (const design of ['in place', 'sharded', 'deltas'] as const) {
    const fixture = await emptyFixture('postgres', 'count_designs');
    try {
      const url = fixture.databaseUrl ?? '';
      const client = new pg.Client({ connectionString: url });
      await client.connect();
      await prepare(client);
      await client.end();
      const result = await run(url, new URL(url).pathname.slice(1), design, clients);
      console.log(
        `| ${design} | ${clients} | ${result.perSecond.toFixed(0)} | ${(100 * result.lockShare).toFixed(1)} % | ${result.load} |`,
      );
    } finally {
      await fixture.drop();
    }
  }
}
