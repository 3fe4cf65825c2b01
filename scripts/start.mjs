// `npm start`: compiles the server when dist-server/ is missing or older than its sources (about a
// second, once), then runs the compiled JavaScript. The server itself builds the SPA when stale.
import { buildServer, isServerStale, OUT_FILE } from './build-server.mjs';
import { pathToFileURL } from 'node:url';

if (isServerStale()) {
  console.log('Compiling the server (dist-server/ is missing or older than its sources)...');
  await buildServer();
}
await import(pathToFileURL(OUT_FILE).href);
