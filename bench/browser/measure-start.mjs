// The page's longest main-thread tasks as it opens, for one or more builds side by side (turns
// alternate between them, so that the machine's load falls on each alike). Figures, not a test.
//   node bench/browser/measure-start.mjs                       (dist/, 5 turns)
//   DISTS=/tmp/dist-a,/tmp/dist-b N=7 HASH='#preset=journey' node bench/browser/measure-start.mjs
// TRACE=1: what each task over 50 ms was made of (long-task-trace.mjs; TRACE_MS=<ms> for shorter).
import os from 'node:os';
import { baseUrl, dist, launchChromium, serveStatic } from '../../tests/browser/harness.mjs';
import { describe, observeFromTheStart, settle } from './long-task-observer.mjs';
import { startTrace } from './long-task-trace.mjs';

const dists = process.env.DISTS?.split(',') ?? [dist];
const turns = Number(process.env.N ?? 5);
const servers = await Promise.all(dists.map((folder) => serveStatic(folder)));
const browser = await launchChromium();
console.log(
  `load average ${os
    .loadavg()
    .map((l) => l.toFixed(2))
    .join(' ')} on ${os.cpus().length} CPUs; ${turns} turns`,
);
const longest = dists.map(() => []);
for (let turn = 0; turn < turns; turn += 1) {
  for (const [k, server] of servers.entries()) {
    const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
    await observeFromTheStart(context);
    const page = await context.newPage();
    const stop = process.env.TRACE ? await startTrace(page) : null;
    await page.goto(`${baseUrl(server)}index.html${process.env.HASH ?? ''}`);
    await page.waitForSelector('#results [data-matrix], #results canvas', { state: 'attached', timeout: 120000 });
    const opened = await settle(page);
    longest[k].push(opened.max);
    console.log(`${dists[k]}: ${describe(opened)}`);
    if (stop) console.log((await stop()).join('\n'));
    await context.close();
  }
}
const median = (values) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];
for (const [k, folder] of dists.entries()) console.log(`${folder}: longest task median ${median(longest[k])} ms (${longest[k].join(', ')})`);
await browser.close();
for (const server of servers) server.close();
