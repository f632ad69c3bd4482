// `npm run openapi:generate`: prints the service's OpenAPI document (built by the compiled
// src/composition/api/openapi-document.ts, with no connection made) for openapi/openapi.json.
import 'reflect-metadata';
import { createRequire } from 'node:module';

const require = createRequire(import.meta.url);
const { generateOpenApiDocument } = require('../dist/composition/api/openapi-document.js');

try {
  process.stdout.write(`${JSON.stringify(await generateOpenApiDocument(), null, 2)}\n`);
} catch (error) {
  process.stderr.write(`failed: ${error.message}\n`);
  process.exitCode = 1;
}
