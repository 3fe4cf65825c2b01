/** The part of autocannon's API `npm run bench` uses (the package ships no types). */
declare module 'autocannon' {
  interface Options { url: string; method?: string; headers?: Record<string, string>; body?: string; connections?: number; duration?: number }
  interface Result {
    requests: { average: number; total: number };
    latency: { p50: number; p99: number };
    non2xx: number; errors: number; timeouts: number;
    statusCodeStats: Record<string, { count: number }>;
  }
  function autocannon(options: Options): Promise<Result>;
  export default autocannon;
}
