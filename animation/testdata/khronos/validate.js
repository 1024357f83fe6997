// Runs the Khronos glTF-Validator on one glTF or GLB file and prints its
// report as JSON on standard output (exit 0), or why it could not run
// (exit 2). Used by package animationtest; install it with
//   npm ci --prefix animation/testdata/khronos
'use strict';
const fs = require('fs');
const path = require('path');
const validator = require('gltf-validator');

const file = process.argv[2];
if (!file) {
  console.error('usage: node validate.js FILE.glb|FILE.gltf');
  process.exit(2);
}
validator.validateBytes(new Uint8Array(fs.readFileSync(file)), {
  uri: path.basename(file),
  maxIssues: 100,
  externalResourceFunction: (uri) => new Promise((resolve, reject) => {
    fs.readFile(path.resolve(path.dirname(file), decodeURIComponent(uri)), (err, data) => err ? reject(err) : resolve(new Uint8Array(data)));
  }),
}).then((report) => {
  process.stdout.write(JSON.stringify(report));
}).catch((err) => {
  console.error(String(err));
  process.exit(2);
});
