// The example course page (examples/course-page.html) with an iframe and two
// <attention-playground> elements: each embed shows the worked numbers, fits its height through
// the postMessage protocol, keeps its own state, leaks no style either way, and carries an
// "open in the full playground" link with its current state; its two exercises show their scores.
// Then hostile hosts and frames: an element's `src` cannot run script, a frame of another origin
// or page cannot set the height or data-link, and the reader's state reaches only a parent that
// asks. Needs the built site.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

import { baseUrl, dist, serveStatic, saveScreenshot } from './harness.mjs';
import { openPage, printedCells, rowTexts, screenshots, startHarness } from './share-harness.mjs';

let harness;
// A second site for made-up host pages (a CMS page, hostile frames) with the built playground
// next to them, served for real: Chromium refuses a page the test makes up on the fly (a route)
// to frame a local address. Reachable as 127.0.0.1 and, a different origin, as localhost.
let site;
before(async () => {
  harness = await startHarness();
  const root = mkdtempSync(path.join(tmpdir(), 'attention-cms-'));
  symlinkSync(dist, path.join(root, 'dist')); // (PLAYGROUND_DIST: another build)
  const server = await serveStatic(root);
  site = { root, server, base: baseUrl(server), other: baseUrl(server).replace('127.0.0.1', 'localhost') };
});
after(async () => {
  await harness?.close();
  if (site) {
    await new Promise((resolve) => site.server.close(resolve));
    rmSync(site.root, { recursive: true, force: true });
  }
});

// The frame of an embed: the iframe by id, or the iframe in a custom element's shadow root.
async function frameOf(page, selector) {
  const handle = await page.waitForFunction((sel) => {
    const host = document.querySelector(sel);
    return host?.shadowRoot?.querySelector('iframe') ?? (host?.tagName === 'IFRAME' ? host : null);
  }, selector);
  const frame = await handle.asElement().contentFrame();
  await frame.waitForSelector('section.lesson-step:not(.parked) td[data-matrix="weights"]');
  return { frame, iframe: handle.asElement() };
}

const frameHeight = (iframe) => iframe.evaluate((node) => node.getBoundingClientRect().height);
const contentHeight = (frame) => frame.evaluate(() => Math.ceil(document.documentElement.getBoundingClientRect().height));

test('the course page shows an iframe and two custom elements, each with the course numbers', async () => {
  const { page, errors, close } = await openPage(harness.browser, `${harness.base}examples/course-page.html`);
  try {
    const embeds = {
      iframe: await frameOf(page, '#course-iframe'),
      first: await frameOf(page, '#first'),
      second: await frameOf(page, '#second'),
    };
    // Worked example, causal (the iframe): row 2 of A is [0.423, 0.577, 0, …].
    assert.deepEqual(await rowTexts(embeds.iframe.frame, 'weights', 0, 1), ['0.423', '0.577', '0', '0', '0', '0']);
    // The same example without the mask (first element).
    assert.deepEqual(await rowTexts(embeds.first.frame, 'weights', 0, 0), ['0.192', '0.187', '0.185', '0.142', '0.140', '0.155']);
    // The cat example (second element): cat attends most to itself.
    assert.deepEqual(await rowTexts(embeds.second.frame, 'weights', 0, 1), ['0.274', '0.452', '0.274']);

    for (const [name, { frame, iframe }] of Object.entries(embeds)) {
      // Embed mode: no page chrome, the "open in the full playground" link on top.
      assert.equal(await frame.isVisible('header.top'), false, name);
      assert.equal(await frame.isVisible('#share-copy'), false, name);
      assert.match(await frame.getAttribute('#share-open-full', 'href'), /^http:\/\/127\.0\.0\.1:\d+\/dist\/index\.html#/, name);
      assert.doesNotMatch(await frame.getAttribute('#share-open-full', 'href'), /embed=1/, name);
      // The iframe fits its content (the embed reported its height).
      await page.waitForFunction(([el, want]) => Math.abs(el.getBoundingClientRect().height - want) <= 2, [iframe, await contentHeight(frame)]);
      assert.ok((await frameHeight(iframe)) > 300, name);
    }
    // Languages and hidden controls from the attributes.
    assert.equal(await embeds.first.frame.evaluate(() => document.documentElement.lang), 'zh-CN');
    assert.equal(await embeds.second.frame.evaluate(() => document.documentElement.lang), 'en');
    assert.equal(await embeds.second.frame.isVisible('#sentence'), false);
    assert.equal(await embeds.second.frame.isVisible('#heads'), false);
    assert.equal(await embeds.first.frame.isVisible('#sentence'), true);
    assert.equal(await embeds.iframe.frame.locator('#results .caption:visible').count(), 0, 'prose_hide');

    await saveScreenshot(page, { path: path.join(screenshots, 'embed-course-page.png'), fullPage: false, keep: true });
    await saveScreenshot(page.locator('#second'), { path: path.join(screenshots, 'embed-element.png') });
    assert.deepEqual(errors, []);
  } finally {
    await close();
  }
});

test('an embedded step fits about one screen, and no embed changes height while the course page scrolls', async () => {
  const { page, errors, close } = await openPage(harness.browser, `${harness.base}examples/course-page.html`);
  try {
    const embeds = [await frameOf(page, '#course-iframe'), await frameOf(page, '#first'), await frameOf(page, '#second')];
    for (const { frame, iframe } of embeds) {
      await page.waitForFunction(([el, want]) => Math.abs(el.getBoundingClientRect().height - want) <= 2, [iframe, await contentHeight(frame)]);
    }
    // The iframe: the softmax step of the worked example, explanations and the matrices from
    // earlier steps hidden, its lab folded under its title: about one screen.
    const stepHeight = await frameHeight(embeds[0].iframe);
    assert.ok(stepHeight <= 1.05 * page.viewportSize().height, `the softmax step embedded is ${stepHeight} px tall`);
    const lab = embeds[0].frame.locator('#softmax-lab');
    assert.equal(await lab.evaluate((el) => el.open), false, 'the lab is folded in a frame');
    assert.equal(await embeds[0].frame.locator('section.lesson-step:not(.parked) figure.from-step').count(), 1, 'the figure from step 5 is there…');
    assert.equal(await embeds[0].frame.locator('section.lesson-step:not(.parked) figure.from-step').isVisible(), false, '…and hidden by inputs_hide');
    const heightsAt = () => Promise.all(embeds.map(({ iframe }) => frameHeight(iframe)));
    const first = await heightsAt();
    const total = await page.evaluate(() => document.documentElement.scrollHeight);
    for (let y = 0; y <= total; y += 250) {
      await page.evaluate((top) => scrollTo(0, top), y);
      await page.evaluate(() => new Promise((resolve) => requestAnimationFrame(() => setTimeout(resolve, 50))));
      assert.deepEqual(await heightsAt(), first, `scrolled to ${y}`);
    }
    // A reader opens the lab with one click, and the frame grows to show it.
    await embeds[0].iframe.scrollIntoViewIfNeeded();
    await lab.locator('summary').click();
    await lab.locator('td[data-matrix="lab"]').first().waitFor();
    await page.waitForFunction(([el, was]) => el.getBoundingClientRect().height > was + 200, [embeds[0].iframe, stepHeight]);
    assert.deepEqual(errors, []);
  } finally {
    await close();
  }
});

test('styles do not cross between the course page and the embeds', async () => {
  const { page, close } = await openPage(harness.browser, `${harness.base}examples/course-page.html`);
  try {
    const { frame } = await frameOf(page, '#first');
    // The host's dashed magenta table borders and Comic Sans do not reach the playground…
    const inside = await frame.$eval('section.lesson-step:not(.parked) td[data-matrix="weights"]', (td) => {
      const style = getComputedStyle(td);
      return { border: style.borderTopStyle, font: style.fontFamily, outline: getComputedStyle(td.closest('table')).outlineStyle };
    });
    assert.notEqual(inside.border, 'dashed');
    assert.doesNotMatch(inside.font, /Comic/);
    assert.equal(inside.outline, 'none');
    // …and the playground's styles do not reach the host.
    const host = await page.evaluate(() => ({
      td: getComputedStyle(document.querySelector('.course-table td')).borderTopStyle,
      font: getComputedStyle(document.body).fontFamily,
      background: getComputedStyle(document.body).backgroundColor,
      sheets: document.styleSheets.length,
    }));
    assert.equal(host.td, 'dashed');
    assert.match(host.font, /Georgia/);
    assert.equal(host.background, 'rgb(251, 250, 246)');
    assert.equal(host.sheets, 1, 'the element adds no stylesheet to the host document');
    // The element's own style lives in its shadow root.
    assert.equal(await page.$eval('#first', (el) => el.shadowRoot.querySelectorAll('style').length), 1);
  } finally {
    await close();
  }
});

test('the two elements keep their own state; each "open in the full playground" link carries it', async () => {
  const { page, errors, close } = await openPage(harness.browser, `${harness.base}examples/course-page.html`);
  try {
    const first = await frameOf(page, '#first');
    const second = await frameOf(page, '#second');
    const secondBefore = await printedCells(second.frame);
    await first.frame.fill('#sentence', 'Attention is all you need');
    await first.frame.waitForFunction(
      () => document.querySelectorAll('section.lesson-step:not(.parked) td[data-matrix="weights"][data-head="0"]').length === 25,
    );
    await first.frame.waitForFunction(() => document.querySelector('#share-open-full').href.includes('Attention+is+all+you+need'));
    // The other element did not change.
    assert.deepEqual(await printedCells(second.frame), secondBefore);
    assert.doesNotMatch(await second.frame.getAttribute('#share-open-full', 'href'), /Attention/);
    // The host heard the state through the protocol (the element mirrors it in data-link).
    await page.waitForFunction(() => document.querySelector('#first').dataset.link?.includes('Attention+is+all+you+need'));

    // Opening the link shows the full playground with the same numbers.
    const href = await first.frame.getAttribute('#share-open-full', 'href');
    const full = await openPage(harness.browser, href);
    try {
      await full.page.waitForSelector('section.lesson-step:not(.parked) td[data-matrix="weights"]');
      assert.equal(await full.page.isVisible('header.top'), true);
      assert.equal(await full.page.inputValue('#sentence'), 'Attention is all you need');
      assert.deepEqual(await printedCells(full.page), await printedCells(first.frame));
      assert.deepEqual(full.errors, []);
    } finally {
      await full.close();
    }
    assert.deepEqual(errors, []);
  } finally {
    await close();
  }
});

test('the course page shows the score of each exercise under it, and only a possible score for that exercise', async () => {
  const { page, errors, close } = await openPage(harness.browser, `${harness.base}examples/course-page.html`);
  try {
    const scoreText = (id) => page.textContent(`#${id}-score`);
    await page.locator('#exercise-softmax-axis').scrollIntoViewIfNeeded();
    const { frame } = await frameOf(page, '#exercise-softmax-axis');
    // The choice (question 2): right at the first try. The page asked for scores, so it hears it.
    const choice = '#exercise li[data-q="1"]';
    await frame.check(`${choice} input[value="0"]`);
    await frame.click(`${choice} .exercise-check`);
    await frame.waitForSelector(`${choice}[data-state="right"]`);
    await page.waitForFunction(() => document.getElementById('exercise-softmax-axis-score').textContent === '已完成 1/2，答对 1');
    assert.equal(await scoreText('exercise-worked'), '尚未作答', 'each exercise has its own score');

    // Made-up scores, posted in the frame as from its console: none that no playground could post
    // is shown, nor one for another exercise, nor one posted by the course page itself.
    const ids = {
      own: await page.getAttribute('#exercise-softmax-axis', 'data-exercise'),
      other: await page.getAttribute('#exercise-worked', 'data-exercise'),
    };
    await page.evaluate(() => {
      const output = document.getElementById('exercise-softmax-axis-score');
      window.shown = [];
      new MutationObserver(() => window.shown.push(output.textContent)).observe(output, { childList: true, characterData: true, subtree: true });
    });
    const score = (fields) => ({ protocol: 'attention-playground', version: 3, type: 'attention-playground:exercise', ...fields });
    const say = (fields) => frame.evaluate((data) => parent.postMessage(data, '*'), score(fields));
    for (const fields of [
      { exercise: ids.own, answered: 999, correct: 999, total: 3 },
      { exercise: ids.own, answered: 1, correct: 2, total: 2 },
      { exercise: ids.own, answered: 1.5, correct: 1, total: 2 },
      { exercise: ids.own, answered: 1, correct: 1, total: 21 },
      { exercise: ids.other, answered: 5, correct: 5, total: 5 },
    ]) {
      await say(fields);
    }
    await page.evaluate((data) => postMessage(data, '*'), score({ exercise: ids.own, answered: 2, correct: 0, total: 2 }));
    // A possible score is shown: a score proves nothing of what the learner knows (docs/exercises.md).
    await say({ exercise: ids.own, answered: 2, correct: 2, total: 2 });
    await page.waitForFunction(() => document.getElementById('exercise-softmax-axis-score').textContent === '已完成 2/2，答对 2');
    assert.deepEqual(await page.evaluate(() => window.shown), ['已完成 2/2，答对 2']);
    assert.equal(await scoreText('exercise-worked'), '尚未作答');
    assert.deepEqual(errors, []);
  } finally {
    await close();
  }
});

// ---- hostile authors, frames and hosts (docs/embedding.md, "Safe to allow in a CMS") --------------

// Writes the made-up pages (`pages`: path on the site → HTML), then opens `url` in a fresh context
// that records console warnings and errors.
async function openWithPages(url, pages) {
  for (const [name, html] of Object.entries(pages)) writeFileSync(path.join(site.root, name), html);
  const context = await harness.browser.newContext({ viewport: { width: 1280, height: 900 } });
  const page = await context.newPage();
  const warnings = [];
  const errors = [];
  page.on('console', (message) => {
    if (message.type() === 'warning') warnings.push(message.text());
    if (message.type() === 'error') errors.push(message.text());
  });
  page.on('pageerror', (error) => errors.push(`pageerror: ${error.message}`));
  await page.goto(url);
  return { page, warnings, errors, close: () => context.close() };
}

// Every message a window hears, as [origin, data] (kept in window.heard).
const RECORD_MESSAGES = `<script>
  window.heard = [];
  addEventListener('message', (e) => heard.push([e.origin, JSON.parse(JSON.stringify(e.data ?? null))]));
</script>`;

// A page that tries to take over the frame's host: a height of 100 000 px, and links the host
// might show (to another site, to the playground's site but not the playground), then 'done'.
const hostileFrame = (playgroundLink) => `<!doctype html><meta charset="utf-8"><link rel="icon" href="data:,"><title>hostile</title><script>
  const say = (message) => parent.postMessage({ protocol: 'attention-playground', version: 2, ...message }, '*');
  say({ type: 'ready', height: 100000 });
  say({ type: 'resize', height: 100000 });
  say({ type: 'state', link: 'https://evil.example/phish#v=1' });
  say({ type: 'state', link: location.origin + '/examples/course-page.html#v=1' });
  say({ type: 'state', link: ${JSON.stringify(playgroundLink)} });
  parent.postMessage('hostile page done', '*');
</script>`;

test('an element’s src cannot run script: javascript: and data: are refused, the default playground shows', async () => {
  const html = `<!doctype html><meta charset="utf-8"><link rel="icon" href="data:,"><title>A CMS page</title>${RECORD_MESSAGES}
<attention-playground id="js" src="javascript:top.ranInHost = 'javascript'" preset="cat"></attention-playground>
<attention-playground id="data" src="data:text/html,<script>parent.postMessage('data page ran', '*')</script>" preset="cat"></attention-playground>
<attention-playground id="tab" src=" java&#9;script:top.ranInHost = 'tab'" preset="cat"></attention-playground>
<attention-playground id="other" src="${site.other}dist/index.html" preset="cat" lang="en"></attention-playground>
<script>
  window.events = [];
  for (const el of document.querySelectorAll('attention-playground')) {
    for (const type of ['error', 'ready', 'resize', 'state']) el.addEventListener('attention-playground-' + type, (e) => events.push([el.id, type, e.detail]));
  }
</script>
<script type="module" src="dist/attention-playground.js"></script>`;
  const { page, warnings, errors, close } = await openWithPages(`${site.base}cms-lesson.html`, { 'cms-lesson.html': html });
  try {
    for (const id of ['js', 'data', 'tab']) {
      const { frame } = await frameOf(page, `#${id}`);
      // The default playground, next to the script, computed its numbers.
      assert.match(await page.$eval(`#${id}`, (el) => el.playgroundUrl), new RegExp(`^${site.base}dist/index\\.html#preset=cat`), id);
      assert.ok(frame.url().startsWith(`${site.base}dist/index.html#`), id);
    }
    // A playground on another origin (localhost) is heard: its height, and its link once asked.
    const { frame: otherFrame } = await frameOf(page, '#other');
    assert.ok(otherFrame.url().startsWith(`${site.other}dist/index.html#preset=cat`));
    await page.waitForFunction((origin) => document.querySelector('#other').dataset.link?.startsWith(`${origin}dist/index.html#`), site.other);
    assert.ok((await page.$eval('#other', (el) => el.getBoundingClientRect().height)) > 300);

    assert.equal(await page.evaluate(() => window.ranInHost), undefined, 'no script of a src ran in the host');
    const heard = await page.evaluate(() => window.heard);
    assert.ok(!heard.some(([, data]) => data === 'data page ran'), 'the data: page never loaded');
    const refused = await page.evaluate(() => events.filter(([, type]) => type === 'error').map(([id, , detail]) => [id, detail.src]));
    assert.deepEqual(refused, [
      ['js', "javascript:top.ranInHost = 'javascript'"],
      ['data', "data:text/html,<script>parent.postMessage('data page ran', '*')</script>"],
      ['tab', " java\tscript:top.ranInHost = 'tab'"],
    ]);
    assert.equal(warnings.filter((text) => /src refused/.test(text)).length, 3);
    await saveScreenshot(page, { path: path.join(screenshots, 'embed-refused-src.png'), fullPage: false });
    assert.deepEqual(errors, []);
  } finally {
    await close();
  }
});

test('a frame that is not the playground cannot set the height or data-link; a huge height is clamped', async () => {
  const genuineLink = `${site.other}dist/index.html#v=1&s=planted+answer`;
  const html = `<!doctype html><meta charset="utf-8"><link rel="icon" href="data:,"><title>frames</title>${RECORD_MESSAGES}
<attention-playground id="remote" src="${site.other}dist/index.html" preset="cat" lang="en"></attention-playground>
<attention-playground id="local" preset="cat" lang="en"></attention-playground>
<script>
  window.events = [];
  for (const el of document.querySelectorAll('attention-playground')) {
    for (const type of ['ready', 'resize', 'state']) el.addEventListener('attention-playground-' + type, (e) => events.push([el.id, type, e.detail]));
  }
</script>
<script type="module" src="dist/attention-playground.js"></script>`;
  const { page, errors, close } = await openWithPages(`${site.base}cms-frames.html`, {
    'cms-frames.html': html,
    // Served from 127.0.0.1, not the remote playground's origin: the remote element must ignore it all.
    'hostile.html': hostileFrame(genuineLink),
    // On the local playground's own origin, but not the playground.
    'hostile-same-origin.html': hostileFrame(`${site.base}dist/index.html#v=1&s=planted+answer`),
  });
  const state = (id) => page.$eval(`#${id}`, (el) => ({ height: el.shadowRoot.querySelector('iframe').style.height, link: el.dataset.link ?? null }));
  // Points an element's frame at `url` (as a link inside it, or a redirect, would) and waits for
  // the page there to have said everything.
  const navigateFrame = async (id, url) => {
    const count = await page.evaluate(() => heard.filter(([, data]) => data === 'hostile page done').length);
    await page.$eval(
      `#${id}`,
      (el, address) => {
        el.shadowRoot.querySelector('iframe').src = address;
      },
      url,
    );
    await page.waitForFunction((n) => heard.filter(([, data]) => data === 'hostile page done').length > n, count);
    await page.evaluate(() => new Promise((resolve) => setTimeout(resolve, 50))); // (the element hears after `heard`)
  };
  try {
    await frameOf(page, '#remote');
    await frameOf(page, '#local');
    await page.waitForFunction(() => ['remote', 'local'].every((id) => document.getElementById(id).dataset.link));
    // Until the playgrounds have settled (their last resize a second ago): later changes are not theirs.
    await page.waitForFunction(
      () => {
        const count = events.length;
        if (window.quiet?.count !== count) window.quiet = { count, since: performance.now() };
        return performance.now() - window.quiet.since > 1000;
      },
      null,
      { polling: 100 },
    );
    const before = { remote: await state('remote'), local: await state('local') };
    const eventCount = await page.evaluate(() => events.length);

    // Another origin's page, then a data: page, in the remote element's frame: nothing is heard.
    await navigateFrame('remote', `${site.base}hostile.html`);
    await navigateFrame('remote', `data:text/html,${encodeURIComponent(hostileFrame(genuineLink))}`);
    assert.deepEqual(await state('remote'), before.remote);
    assert.deepEqual(
      (await page.evaluate(() => events)).slice(eventCount).filter(([id]) => id === 'remote'),
      [],
    );

    // A page of the local playground's origin that is not the playground: its height is clamped
    // to 20 000 px, its links to another site or another page are dropped.
    await navigateFrame('local', `${site.base}hostile-same-origin.html`);
    const local = await state('local');
    assert.equal(local.height, '20000px');
    assert.equal(await page.$eval('#local', (el) => el.getBoundingClientRect().height), 20000);
    assert.ok(local.link.startsWith(`${site.base}dist/index.html#`), local.link);
    const heardByLocal = (await page.evaluate(() => events)).slice(eventCount).filter(([id]) => id === 'local');
    assert.ok(heardByLocal.some(([, type, detail]) => type === 'resize' && detail.height === 20000));
    const links = heardByLocal.filter(([, type]) => type === 'state').map(([, , detail]) => detail.link);
    assert.deepEqual(links, [`${site.base}dist/index.html#v=1&s=planted+answer`]);
    assert.deepEqual(errors, []);
  } finally {
    await close();
  }
});

test('the reader’s state reaches the host only when the parent asks, and only for its origin', async () => {
  const request = (watch) => ({ protocol: 'attention-playground', version: 2, type: 'request-state', watch });
  const hostHtml = `<!doctype html><meta charset="utf-8"><link rel="icon" href="data:,"><title>host</title>
<script>
  // What the embed hands to this window's postMessage, with the target origin it names (the
  // embed calls it directly when the host is of its own origin).
  window.posted = [];
  const post = window.postMessage;
  window.postMessage = function (data, target) { posted.push([data?.type ?? data, target]); return post.apply(this, arguments); };
</script>${RECORD_MESSAGES}
<iframe id="embed" src="${site.base}dist/index.html#preset=cat&v=1&embed=1" style="width:100%;height:3000px;border:0"></iframe>
<iframe id="sibling" src="${site.other}lms-sibling.html"></iframe>`;
  const sibling = `<!doctype html><meta charset="utf-8"><link rel="icon" href="data:,">${RECORD_MESSAGES}<script>
  // Another frame of the host page asks the embed for the state, and hears whatever comes.
  window.ask = () => parent.frames[0].postMessage(${JSON.stringify(request(true))}, '*');
</script>`;

  // A host on another origin than the playground's, then one on the same origin.
  for (const hostBase of [site.other, site.base]) {
    const { page, errors, close } = await openWithPages(`${hostBase}lms-host.html`, { 'lms-host.html': hostHtml, 'lms-sibling.html': sibling });
    try {
      const embed = await (await page.$('#embed')).contentFrame();
      const siblingFrame = await (await page.$('#sibling')).contentFrame();
      await embed.waitForSelector('section.lesson-step:not(.parked) td[data-matrix="weights"]');
      await siblingFrame.waitForFunction(() => typeof window.ask === 'function');
      await embed.fill('#sentence', 'my secret answer');
      await embed.waitForFunction(() => document.querySelector('#share-open-full').href.includes('my+secret+answer'));
      // A sibling frame asks; then the host asks for a height, whose answer comes after.
      await siblingFrame.evaluate(() => window.ask());
      await page.evaluate(() => new Promise((resolve) => setTimeout(resolve, 300)));
      const resizes = await page.evaluate(() => heard.filter(([, d]) => d?.type === 'resize').length);
      await page.evaluate(() =>
        document.getElementById('embed').contentWindow.postMessage({ protocol: 'attention-playground', version: 2, type: 'request-height' }, '*'),
      );
      await page.waitForFunction((n) => heard.filter(([, d]) => d?.type === 'resize').length > n, resizes);
      const unasked = await page.evaluate(() => heard);
      assert.ok(
        unasked.every(([, data]) => data.type === 'ready' || data.type === 'resize'),
        JSON.stringify(unasked),
      );
      assert.doesNotMatch(JSON.stringify(unasked), /secret/);
      assert.deepEqual(await siblingFrame.evaluate(() => heard), []);

      // The host asks: the state comes, and keeps coming while the reader types.
      await page.evaluate(
        ([message, target]) => document.getElementById('embed').contentWindow.postMessage(message, target),
        [request(true), site.base],
      );
      await page.waitForFunction(() => heard.some(([, d]) => d?.type === 'state' && d.link.includes('my+secret+answer')));
      await embed.fill('#sentence', 'my second answer');
      await page.waitForFunction(() => heard.some(([, d]) => d?.type === 'state' && d.link.includes('my+second+answer')));
      const states = await page.evaluate(() => heard.filter(([, d]) => d?.type === 'state'));
      assert.ok(states.every(([from, d]) => `${from}/` === site.base && d.link.startsWith(`${site.base}dist/index.html#`)));
      if (hostBase === site.base) {
        // Same origin: the embed's own calls are seen, with their target origins.
        const targets = await page.evaluate(() => posted);
        assert.ok(targets.some(([type, target]) => type === 'resize' && target === '*'));
        const stateTargets = targets.filter(([type]) => type === 'state').map(([, target]) => target);
        assert.ok(stateTargets.length >= 2);
        assert.deepEqual([...new Set(stateTargets)], [site.base.replace(/\/$/, '')]);
      }
      assert.deepEqual(errors, []);
    } finally {
      await close();
    }
  }
});
