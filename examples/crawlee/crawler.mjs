// A crawlee crawler that stays within robots.txt: `npm install --install-links && node crawler.mjs <start URL>`.
// Its requests to a site are spaced by the site's Crawl-delay (or Request-rate): crawlee's own
// maxRequestsPerMinute caps the whole crawl's rate, and lets requests to one site bunch up.
import { extendTimeout } from '@apify/timeout';
import { CheerioCrawler } from 'crawlee';
import { pacing, siteRules, USER_AGENT } from './robots.mjs';

const startUrl = process.argv[2] ?? 'https://crawlee.dev/';
const rules = await siteRules(startUrl);
// crawlee's own copy of @apify/timeout, whose extendTimeout moves the deadline of the request that calls it.
const { options: paced } = pacing(extendTimeout);

const crawler = new CheerioCrawler({
  maxRequestsPerCrawl: 20,
  ...paced,
  preNavigationHooks: [
    ...paced.preNavigationHooks,
    // The pages are fetched with the agent the rules were chosen for.
    (_context, gotOptions) => {
      gotOptions.headers = { ...gotOptions.headers, 'user-agent': USER_AGENT };
    },
  ],
  async requestHandler({ request, $, enqueueLinks, log }) {
    log.info(`${request.url}: ${$('title').text().trim()}`);
    await enqueueLinks({
      strategy: 'same-origin',
      transformRequestFunction: (link) => (rules.allows(link.url) ? link : false),
    });
  },
});

console.log(`sitemaps: ${rules.sitemaps.join(', ') || 'none'}`);
await crawler.run(rules.allows(startUrl) ? [startUrl] : []);
