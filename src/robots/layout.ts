// The packed structure of a parsed file (RobotsStructure, src/robots/structure.ts): the word
// layout the kernel's group builder writes (assembly/groups.ts) and structure.ts reads. This
// file is compiled by both TypeScript and AssemblyScript, so it holds plain constants only.
//
// The words are integers, u16s when every one fits (a narrow structure: most files; 0xffff
// stands for -1) and u32s otherwise, in this order:
// - HEADER_WORDS words: the number of rules, groups, agent tokens and extension records;
// - RULE_WORDS words per rule, in file order: where its value starts among the kept values,
//   and line * 2 + 1 for allow (+ 0 for disallow); then one word, where the last rule's value
//   ends (the rules' values are back to back, so each one ends where the next starts);
// - GROUP_WORDS words per group, in file order: the line of its first user-agent line, its
//   first rule (its rules run to the next group's first), 1 when a `*` line names it, and the
//   value range of its first valid crawl-delay (-1, -1 without one);
// - one word per agent token: the group its line is in;
// - RECORD_WORDS words per extension record (a line with a key other than user-agent, allow
//   and disallow: a known extension, or an unknown key that is a token), in file order: its
//   line, its group + 1 (0 before the first group), its directive id, and where its key and
//   its value start and its value ends among the kept values (the key as written, then the
//   value).

export const HEADER_WORDS = 4;
export const HEADER_RULES = 0;
export const HEADER_GROUPS = 1;
export const HEADER_TOKENS = 2;
export const HEADER_RECORDS = 3;

export const RULE_WORDS = 2;
export const RULE_VALUE = 0;
export const RULE_LINE_ALLOW = 1;

export const GROUP_WORDS = 5;
export const GROUP_LINE = 0;
export const GROUP_FIRST_RULE = 1;
export const GROUP_GLOBAL = 2;
export const GROUP_DELAY_START = 3;
export const GROUP_DELAY_END = 4;

export const RECORD_WORDS = 6;
export const RECORD_LINE = 0;
export const RECORD_GROUP = 1;
export const RECORD_DIRECTIVE = 2;
export const RECORD_KEY = 3;
export const RECORD_VALUE = 4;
export const RECORD_END = 5;
