// Types for the peers that ship none (bench only).
declare module 'robots-txt-guard' {
  interface GuardInput {
    groups: { agents: string[]; rules: { rule: string; path: string }[] }[];
  }
  function guard(input: GuardInput): { isAllowed(agent: string, path: string): boolean };
  export default guard;
}
declare module 'robots-txt-parser' {
  interface Robots {
    parseRobots(url: string, body: string): void;
    canCrawlSync(url: string): boolean;
  }
  function robotsTxtParser(options: { userAgent: string; allowOnNeutral?: boolean }): Robots;
  export default robotsTxtParser;
}
