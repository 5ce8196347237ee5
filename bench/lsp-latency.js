// How long ptxsurf-as --lsp takes to answer an edit: the time from sending
// a textDocument/didChange (one character of one instruction changed, as
// typing does) to receiving the publishDiagnostics for that version, on
// documents of the given sizes. Client: vscode-languageserver-protocol.
//   node lsp-latency.js PROG NODE_MODULES FILE... (one document per file)
'use strict';
const fs = require('fs');
const { spawn } = require('child_process');
const [prog, modules, ...files] = process.argv.slice(2);
module.paths.unshift(modules);
const lsp = require('vscode-languageserver-protocol/node');
const EDITS = 15;

async function measure(conn, waiters, file) {
	const text = fs.readFileSync(file, 'utf8');
	const uri = 'file://' + file;
	const lines = text.split('\n');
	// an instruction line in the middle: its first register number is the edit
	let line = Math.floor(lines.length / 2);
	while (line < lines.length && !/%r[0-9]/.test(lines[line])) line++;
	const col = lines[line].search(/%r[0-9]/) + 2;
	const published = (version) => new Promise((resolve) => waiters.set(uri + '#' + version, resolve));
	let p = published(1);
	const t0 = process.hrtime.bigint();
	await conn.sendNotification(lsp.DidOpenTextDocumentNotification.type,
		{ textDocument: { uri, languageId: 'ptx', version: 1, text } });
	const first = await p;
	const openMs = Number(process.hrtime.bigint() - t0) / 1e6;
	const times = [];
	for (let v = 2; v < 2 + EDITS; v++) {
		const digit = String(v % 2 ? 1 : 2);
		p = published(v);
		const t = process.hrtime.bigint();
		await conn.sendNotification(lsp.DidChangeTextDocumentNotification.type, {
			textDocument: { uri, version: v },
			contentChanges: [{ range: { start: { line, character: col }, end: { line, character: col + 1 } },
				text: digit }] });
		await p;
		times.push(Number(process.hrtime.bigint() - t) / 1e6);
	}
	times.sort((a, b) => a - b);
	const median = times[Math.floor(times.length / 2)];
	console.log(`${(text.length / 1000).toFixed(0).padStart(6)} KB ${String(first.diagnostics.length).padStart(6)}` +
		` ${openMs.toFixed(1).padStart(9)} ${times[0].toFixed(1).padStart(9)} ${median.toFixed(1).padStart(9)}` +
		` ${times[times.length - 1].toFixed(1).padStart(9)}`);
	await conn.sendNotification(lsp.DidCloseTextDocumentNotification.type, { textDocument: { uri } });
}

async function main() {
	const child = spawn(prog, ['--lsp'], { stdio: ['pipe', 'pipe', 'inherit'] });
	const conn = lsp.createProtocolConnection(new lsp.StreamMessageReader(child.stdout),
		new lsp.StreamMessageWriter(child.stdin));
	const waiters = new Map();
	conn.onNotification(lsp.PublishDiagnosticsNotification.type, (p) => {
		const key = p.uri + '#' + p.version, w = waiters.get(key);
		if (w) { waiters.delete(key); w(p); }
	});
	conn.listen();
	await conn.sendRequest(lsp.InitializeRequest.type, { processId: process.pid, rootUri: null, capabilities: {} });
	await conn.sendNotification(lsp.InitializedNotification.type, {});
	console.log(`  size  diags   open(ms) edit-min  edit-med  edit-max   (${EDITS} edits, ms from didChange to publishDiagnostics)`);
	for (const f of files)
		await measure(conn, waiters, f);
	await conn.sendRequest(lsp.ShutdownRequest.type);
	await conn.sendNotification(lsp.ExitNotification.type);
	conn.dispose();
}
main().catch((e) => { console.error(e); process.exit(1); });
