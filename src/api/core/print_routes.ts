// `make routes` / `npm run routes`: prints the declared route tables (route_tables.ts).
import { formatRouteTable } from './route_tables.js';

process.stdout.write(`${formatRouteTable()}\n`);
