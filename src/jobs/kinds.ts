// Every kind of background job and periodic job this program runs: importing a file registers
// its kinds (src/jobs/registry.ts). Add a new job's file here.
import './noop.js';
