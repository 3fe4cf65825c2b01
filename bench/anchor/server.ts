/**
 * The floor `npm run bench` compares the product with: bare Fastify (one JSON route, and the built
 * anchor page as static files with the same precompressed twins) and bare Mercurius (one query).
 *   node bench/anchor/server.ts <port> <fastify|mercurius> [staticDir]
 * Prints "listening <url>" when ready. Plain JavaScript-compatible TypeScript run through tsx.
 */
import Fastify from 'fastify';

const [portArg, mode = 'fastify', staticDir] = process.argv.slice(2);
const app = Fastify({ logger: false });
if (mode === 'mercurius') {
  const { default: mercurius } = await import('mercurius');
  await app.register(mercurius, {
    schema: 'type Network { name: String!, identifier: String! } type Service { id: ID!, serviceName: String!, networks: [Network!]! } type Query { serviceGet(site: String!): Service }',
    resolvers: { Query: { serviceGet: (_: unknown, { site }: { site: string }) => ({ id: '1', serviceName: site, networks: [{ name: 'Default', identifier: 'default' }] }) } },
    path: '/graphql',
  });
} else {
  app.get('/hello', async () => ({ success: true, user: { id: '1', roles: ['admin'] } }));
  if (staticDir) {
    const { default: fastifyStatic } = await import('@fastify/static');
    await app.register(fastifyStatic, { root: staticDir, preCompressed: true });
  }
}
await app.listen({ port: Number(portArg ?? 0), host: '127.0.0.1' });
const address = app.server.address();
console.log(`listening http://127.0.0.1:${typeof address === 'object' && address ? address.port : portArg}`);
