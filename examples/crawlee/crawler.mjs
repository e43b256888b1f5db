// A crawlee crawler that stays within robots.txt: `npm install && node crawler.mjs <start URL>`.
import { CheerioCrawler } from 'crawlee';
import { siteRules, USER_AGENT } from './robots.mjs';

const startUrl = process.argv[2] ?? 'https://crawlee.dev/';
const rules = await siteRules(startUrl);

const crawler = new CheerioCrawler({
  maxRequestsPerCrawl: 20,
  ...(rules.maxRequestsPerMinute !== undefined && { maxRequestsPerMinute: rules.maxRequestsPerMinute }),
  // The pages are fetched with the agent the rules were chosen for.
  preNavigationHooks: [(_context, gotOptions) => {
    gotOptions.headers = { ...gotOptions.headers, 'user-agent': USER_AGENT };
  }],
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
