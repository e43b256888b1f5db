// The CommonJS side of the runtime tests: require('robots-wasm') by name, as a CommonJS
// application would, then the same checks as answers.mjs (which are ESM, hence the import()).
const lib = require('robots-wasm');

import('./checks.mjs')
  .then(({ runChecks }) => runChecks(lib, { init: process.argv.includes('--init') }))
  .then((answers) => console.log(JSON.stringify(answers)))
  .catch((error) => {
    console.error(error);
    process.exitCode = 1;
  });
