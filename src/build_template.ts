// `make build`'s last step: the empty database new SQLite databases are copied from
// (src/store/template_db.ts), made by running every migration once.
import { buildTemplate, TEMPLATE_FILE } from './store/template_db.js';

await buildTemplate();
console.log(`made ${TEMPLATE_FILE}`);
