// ptxsurf-as --lsp driven by vscode-languageserver-protocol, the library
// VS Code's client is built on: every message goes through its typed
// requests, its framing and its JSON-RPC state machine.
//   node client.js PROG NODE_MODULES_DIR
'use strict';
const path = require('path');
const { spawn } = require('child_process');
const prog = process.argv[2];
module.paths.unshift(process.argv[3]);
const lsp = require('vscode-languageserver-protocol/node');

let passed = 0, failed = 0;
function check(cond, what, got) {
	if (cond) { passed++; return; }
	failed++;
	console.log(`FAIL: ${what}${got === undefined ? '' : ': got ' + JSON.stringify(got).slice(0, 800)}`);
}

const uri = 'file:///w/kernel.ptx';
const text = [
	'.version 4.2',
	'.target sm_52',
	'.address_size 64',
	'.global .u32 g_arr[16];',
	'.visible .entry k(.param .u64 p)',
	'{',
	'\t.reg .pred %p<2>;',
	'\t.reg .b32 %r<10>;',
	'\t.reg .b64 %rd<4>;',
	'\t.reg .f16x2 %x<2>;',
	'\tld.param.u64 %rd1, [p];',
	'\tsetp.eq.u32 %p1, %r1, 0;',
	'\t@%p1 bra $L_end;',
	'\tst.global.u32 [g_arr], %r1;',
	'$L_end:',
	'\tret;',
	'}',
	''].join('\n');

async function main() {
	const child = spawn(prog, ['--lsp'], { stdio: ['pipe', 'pipe', 'inherit'] });
	const exited = new Promise((resolve) => child.on('exit', (code) => resolve(code)));
	const conn = lsp.createProtocolConnection(new lsp.StreamMessageReader(child.stdout),
		new lsp.StreamMessageWriter(child.stdin));
	const waiting = [];
	conn.onNotification(lsp.PublishDiagnosticsNotification.type, (p) => {
		for (let i = 0; i < waiting.length; i++)
			if (waiting[i].match(p)) { waiting.splice(i, 1)[0].resolve(p); return; }
	});
	const diagnostics = (match) => new Promise((resolve, reject) => {
		waiting.push({ match, resolve });
		setTimeout(() => reject(new Error('no publishDiagnostics within 20 s')), 20000).unref();
	});
	conn.listen();

	const init = await conn.sendRequest(lsp.InitializeRequest.type, {
		processId: process.pid, rootUri: null, capabilities: {},
		initializationOptions: { ptxsurf: { rules: 'strict' } } });
	const caps = init.capabilities;
	check(caps.textDocumentSync && caps.textDocumentSync.change === lsp.TextDocumentSyncKind.Incremental,
		'incremental sync', caps.textDocumentSync);
	check(caps.hoverProvider && caps.definitionProvider && caps.documentSymbolProvider, 'providers', caps);
	check(init.serverInfo && init.serverInfo.name === 'ptxsurf-as', 'serverInfo', init.serverInfo);
	await conn.sendNotification(lsp.InitializedNotification.type, {});

	let d = diagnostics((p) => p.uri === uri && p.version === 1);
	await conn.sendNotification(lsp.DidOpenTextDocumentNotification.type,
		{ textDocument: { uri, languageId: 'ptx', version: 1, text } });
	let pub = await d;
	check(pub.diagnostics.length === 1, 'one diagnostic', pub.diagnostics);
	const g = pub.diagnostics[0] || {};
	check(g.code === 'target-gate' && g.severity === lsp.DiagnosticSeverity.Error && g.source === 'ptxsurf-as',
		'target-gate error', g);
	check(g.range && g.range.start.line === 9 && g.range.start.character === 6 && g.range.end.character === 12,
		'its range', g.range);
	const rel = (g.relatedInformation || [])[0];
	check(rel && rel.location.uri === uri && rel.location.range.start.line === 1 &&
		/\.target sm_52 declared here/.test(rel.message), 'the note as related information', g.relatedInformation);

	const hover = await conn.sendRequest(lsp.HoverRequest.type,
		{ textDocument: { uri }, position: { line: 11, character: 19 } });
	check(hover && hover.contents.kind === 'markdown' && /`%r1`: register, one of `%r<10>`/.test(hover.contents.value),
		'hover on %r1', hover);
	const hoverOp = await conn.sendRequest(lsp.HoverRequest.type,
		{ textDocument: { uri }, position: { line: 13, character: 3 } });
	check(hoverOp && /\*\*st\.global\.u32\*\*: PTX instruction/.test(hoverOp.contents.value), 'hover on st', hoverOp);
	const hoverType = await conn.sendRequest(lsp.HoverRequest.type,
		{ textDocument: { uri }, position: { line: 9, character: 8 } });
	check(hoverType && /\.f16x2 packed data-type\*\*: PTX ISA 4\.2 or later; `\.target` sm_53/.test(hoverType.contents.value),
		'hover on .f16x2: version and target from the tables', hoverType);

	const def = await conn.sendRequest(lsp.DefinitionRequest.type,
		{ textDocument: { uri }, position: { line: 12, character: 12 } });
	check(def && def.uri === uri && def.range.start.line === 14 && def.range.start.character === 0,
		'definition of $L_end', def);
	const defVar = await conn.sendRequest(lsp.DefinitionRequest.type,
		{ textDocument: { uri }, position: { line: 13, character: 17 } });
	check(defVar && defVar.range.start.line === 3, 'definition of g_arr', defVar);
	const defParam = await conn.sendRequest(lsp.DefinitionRequest.type,
		{ textDocument: { uri }, position: { line: 10, character: 22 } });
	check(defParam && defParam.range.start.line === 4, 'definition of the parameter p', defParam);

	const symbols = await conn.sendRequest(lsp.DocumentSymbolRequest.type, { textDocument: { uri } });
	const names = (symbols || []).map((s) => `${s.name}:${s.kind}`);
	check(names.join(' ') === 'g_arr:13 k:12', 'document symbols', symbols);
	const k = (symbols || []).find((s) => s.name === 'k');
	check(k && k.children && k.children.length === 1 && k.children[0].name === 'p' && k.detail === '.entry',
		'the entry and its parameter', k);

	// an incremental edit: .target sm_52 -> sm_53 clears the error
	d = diagnostics((p) => p.uri === uri && p.version === 2);
	await conn.sendNotification(lsp.DidChangeTextDocumentNotification.type, {
		textDocument: { uri, version: 2 },
		contentChanges: [{ range: { start: { line: 1, character: 11 }, end: { line: 1, character: 13 } }, text: '53' }] });
	pub = await d;
	check(pub.diagnostics.length === 0, 'clean after the edit', pub.diagnostics);

	// the rules mode from a comment: ptxas 13 accepts .relaxed in .version 5.1, the document does not
	const relaxed = '.version 5.1\n.target sm_70\n.address_size 64\n.entry k()\n{\n\t.reg .b32 %r<2>;\n' +
		'\t.reg .u64 %rd<2>;\n\tst.global.relaxed.gpu.u32 [%rd1], %r1;\n\tret;\n}\n';
	d = diagnostics((p) => p.uri === uri && p.version === 3);
	await conn.sendNotification(lsp.DidChangeTextDocumentNotification.type,
		{ textDocument: { uri, version: 3 }, contentChanges: [{ text: relaxed }] });
	pub = await d;
	check(pub.diagnostics.length === 1 && pub.diagnostics[0].code === 'version-gate', 'strict: version-gate',
		pub.diagnostics);
	d = diagnostics((p) => p.uri === uri && p.version === 4);
	await conn.sendNotification(lsp.DidChangeTextDocumentNotification.type,
		{ textDocument: { uri, version: 4 }, contentChanges: [{ range: { start: { line: 0, character: 0 },
			end: { line: 0, character: 0 } }, text: '// ptxsurf: rules=ptxas\n' }] });
	pub = await d;
	check(pub.diagnostics.length === 0, '// ptxsurf: rules=ptxas', pub.diagnostics);

	// settings from the workspace configuration
	d = diagnostics((p) => p.uri === uri && p.version === 5);
	await conn.sendNotification(lsp.DidChangeTextDocumentNotification.type,
		{ textDocument: { uri, version: 5 }, contentChanges: [{ text: relaxed }] });
	await d;
	d = diagnostics((p) => p.uri === uri && p.version === 5);
	await conn.sendNotification(lsp.DidChangeConfigurationNotification.type,
		{ settings: { ptxsurf: { rules: 'ptxas' } } });
	pub = await d;
	check(pub.diagnostics.length === 0, 'workspace/didChangeConfiguration rules=ptxas', pub.diagnostics);

	// errors come back as JSON-RPC errors
	try {
		await conn.sendRequest('workspace/executeCommand', { command: 'x' });
		check(false, 'an unknown method is an error');
	} catch (e) {
		check(e.code === lsp.ErrorCodes.MethodNotFound, 'MethodNotFound', e.code);
	}

	d = diagnostics((p) => p.uri === uri && p.diagnostics.length === 0 && p.version === undefined);
	await conn.sendNotification(lsp.DidCloseTextDocumentNotification.type, { textDocument: { uri } });
	await d;
	check(true, 'didClose clears the diagnostics');

	await conn.sendRequest(lsp.ShutdownRequest.type);
	await conn.sendNotification(lsp.ExitNotification.type);
	const code = await exited;
	check(code === 0, 'exit status 0 after shutdown', code);
	conn.dispose();
}

main().catch((e) => { failed++; console.log('FAIL: ' + (e && e.stack || e)); }).finally(() => {
	console.log(`lsp-client: ${passed} passed, ${failed} failed`);
	process.exit(failed ? 1 : 0);
});
