// `npm start`: the whole product locally at http://localhost:8787 with demo data.
import { startLocalServer } from "./local-server.mjs";

console.log("Starting ClipCut in local mode…");
console.log("Demo accounts (password ClipCut-demo-1): admin@clipcut.local (admin), creator@clipcut.local (Free plan)");
console.log("Local e-mail outbox: http://localhost:8787/dev/outbox\n");
startLocalServer({ port: 8787 });
