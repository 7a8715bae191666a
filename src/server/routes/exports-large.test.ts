import v8 from 'node:v8';
import vm from 'node:vm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openTestApp, type TestApp } from '../testing/app.ts';
import { testDatabases } from '../testing/databases.ts';
import { insertAssessments } from '../testing/export-samples.ts';
import { signedInAs } from '../testing/users.ts';

// A full collection on demand lets the large test see what the server keeps alive.
v8.setFlagsFromString('--expose-gc');
const collectGarbage = vm.runInNewContext('gc') as () => void;

describe.each(testDatabases())('large exports on $engine', (testDatabase) => {
  const count = 20_000;
  const megabyte = 1024 * 1024;
  let t: TestApp;
  let baseUrl: string;
  let doctor: { cookie: string };

  beforeAll(async () => {
    t = await openTestApp(testDatabase);
    doctor = await signedInAs(t, 'doctor');
    await insertAssessments(t.database.db, count);
    baseUrl = await t.app.listen({ port: 0, host: '127.0.0.1' });
  }, 60_000);
  afterAll(async () => {
    await t.close();
  });

  /**
   * Downloads over a real socket, reading the body as it arrives, and watches the heap of this
   * process, which is the server's: its peak, and what stays live after a full collection every
   * so many megabytes (the rows a server holds; loading every record would add tens of megabytes).
   */
  async function download(
    path: string,
    collectEveryMegabytes: number,
    onLine: (line: string) => void,
  ) {
    collectGarbage();
    const heapBefore = process.memoryUsage().heapUsed;
    let heapPeak = heapBefore;
    let liveHeapPeak = heapBefore;
    const started = performance.now();
    const response = await fetch(`${baseUrl}${path}`, { headers: { cookie: doctor.cookie } });
    expect(response.status).toBe(200);
    const decoder = new TextDecoder();
    let pending = '';
    let bytes = 0;
    let nextCollectionAt = 0;
    for await (const chunk of (response.body ?? []) as AsyncIterable<Uint8Array>) {
      bytes += chunk.byteLength;
      const lines = (pending + decoder.decode(chunk, { stream: true })).split('\n');
      pending = lines.pop() ?? '';
      for (const line of lines) onLine(line);
      heapPeak = Math.max(heapPeak, process.memoryUsage().heapUsed);
      if (bytes >= nextCollectionAt) {
        collectGarbage();
        liveHeapPeak = Math.max(liveHeapPeak, process.memoryUsage().heapUsed);
        nextCollectionAt += collectEveryMegabytes * megabyte;
      }
    }
    if (pending !== '') onLine(pending);
    return {
      heapGrowthMb: (heapPeak - heapBefore) / megabyte,
      liveHeapGrowthMb: (liveHeapPeak - heapBefore) / megabyte,
      megabytes: bytes / megabyte,
      seconds: (performance.now() - started) / 1000,
    };
  }

  const expectFlatMemory = (figures: Awaited<ReturnType<typeof download>>) => {
    expect(figures.heapGrowthMb).toBeLessThan(150);
    expect(figures.liveHeapGrowthMb).toBeLessThan(16);
  };

  const report = (name: string, figures: Awaited<ReturnType<typeof download>>) => {
    console.log(
      `${testDatabase.engine} ${name}: ${count} assessments, ${figures.megabytes.toFixed(1)} MB in ${figures.seconds.toFixed(1)} s, ${Math.round(count / figures.seconds)} rows/s, heap growth ${figures.heapGrowthMb.toFixed(1)} MB at peak, ${figures.liveHeapGrowthMb.toFixed(1)} MB live`,
    );
  };

  it('serves other requests while a download waits for its reader, and after it is dropped', async () => {
    const controller = new AbortController();
    const response = await fetch(`${baseUrl}/api/exports/fhir.ndjson`, {
      headers: { cookie: doctor.cookie },
      signal: controller.signal,
    });
    const reader = response.body?.getReader();
    expect((await reader?.read())?.done).toBe(false);
    const listOne = () =>
      fetch(`${baseUrl}/api/assessments?limit=1`, {
        headers: { cookie: doctor.cookie },
        signal: AbortSignal.timeout(5_000),
      });
    // The download is paused by backpressure, part-way through its rows.
    expect((await listOne()).status).toBe(200);
    controller.abort();
    expect((await listOne()).status).toBe(200);
  });

  it('streams the CSV with the heap staying bounded', async () => {
    let rows = 0;
    const figures = await download('/api/exports/assessments.csv', 1, (line) => {
      if (line.length > 0) rows++;
    });
    report('CSV', figures);
    expect(rows).toBe(count + 1);
    expectFlatMemory(figures);
  }, 60_000);

  it('streams the text report with the heap staying bounded', async () => {
    let entries = 0;
    let summary = '';
    const figures = await download('/api/exports/assessments.txt', 8, (line) => {
      if (line.startsWith('Assessment ID: ')) entries++;
      if (line.startsWith('Total assessments: ')) summary = line;
    });
    report('text report', figures);
    expect(summary).toBe(`Total assessments: ${count}`);
    expect(entries).toBe(count);
    expectFlatMemory(figures);
  }, 60_000);

  it('streams the FHIR NDJSON with the heap staying bounded', async () => {
    let patients = 0;
    const figures = await download('/api/exports/fhir.ndjson', 16, (line) => {
      if (line.startsWith('{"resourceType":"Patient"')) patients++;
    });
    report('FHIR NDJSON', figures);
    expect(patients).toBe(count);
    expectFlatMemory(figures);
  }, 60_000);
});
