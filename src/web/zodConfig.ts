import { config } from 'zod';

// Zod compiles a parser for each object schema with `new Function` where a page allows it, and
// probes whether it does as it builds its first schema. The server's content security policy
// allows no eval, so the probe only raised a policy violation on every page load; the browser
// parses each answer once, for which zod's interpreted path suits anyway. main.tsx imports this
// module first, before any module builds a schema.
config({ jitless: true });
