// Every kind of background job and periodic job this program runs: importing a file registers
// its kinds (src/jobs/registry.ts). Add a new job's file here.
import './noop.js';
import './project_cache.js';
import './update_merge_requests.js';
import './event_retention.js';
import './member_expiry.js';
import './job_retention.js';
import './git_garbage_collect.js';
import './web_hook.js';
import './project_export.js';
import './project_import.js';
import './repository_import_url.js';
import './ci_pipeline_creation.js';
import './pipeline_success.js';
import './lfs_unreferenced.js';
import './backup.js';
import './uploads_unreferenced.js';
