// The robots-wasm/robots-parser entry point: robots-parser 3.0.1's default export over
// RobotsTxt, so that a crawler written for it switches with its import line (the interface is
// robot.ts's). require() of this entry returns the function itself, as robots-parser's does.

import { RobotsTxt } from '../robots-txt.js';
import { robotFor, type Robot } from './robot.js';

export type { Robot };

/**
 * Drop-in for robots-parser's default export: parses `contents`, the robots.txt found at
 * `url`, with RFC 9309 semantics.
 */
export default function robotsParser(url: string, contents: string): Robot {
  return robotFor(url, RobotsTxt.parse(contents || ''));
}

// The name require() of an ES module returns in place of the namespace (Node >= 20.19).
export { robotsParser as 'module.exports' };
