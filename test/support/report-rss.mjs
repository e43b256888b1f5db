// Preloaded into CLI child processes by the tests (node --import): reports the peak resident
// set size on stderr at exit, so a test can assert that memory stayed bounded.
process.on('exit', () => {
  process.stderr.write(`\nmax-rss-kb ${process.resourceUsage().maxRSS}\n`);
});
