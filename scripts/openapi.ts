/**
 * `npm run openapi`: writes docs/openapi.json from the code (route table + handler contracts). A unit test fails
 * while the committed file differs from what the code generates.
 */
import { writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { generateOpenApiDocument } from '../functions/openapi-document.js';
import { documentText } from '../shared/openapi/build-document.js';

const target = fileURLToPath(new URL('../docs/openapi.json', import.meta.url));
const document = await generateOpenApiDocument();
writeFileSync(target, documentText(document));
console.log(`wrote ${Object.keys(document.paths).length} paths to docs/openapi.json`);
