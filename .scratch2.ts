import { readFileSync } from 'node:fs';
import { classifySyntax } from './src/verification/syntax.ts';
const dir = '/work/shared/corpora/';
for (const f of ['isemail_tests.json','isemail_tests_original.json']) {
  const rows = JSON.parse(readFileSync(dir+f,'utf8'));
  let agree = 0; const dis: string[] = [];
  for (const r of rows) { const v = classifySyntax(r.address); if (v.ok === r.expected_valid) agree++; else dis.push(`${r.id} ${JSON.stringify(r.address).slice(0,70)} exp=${r.expected_valid} ${r.diagnosis} ours=${v.ok?'ok':v.code+' '+v.rule}`); }
  console.log(f, agree, rows.length, (100*agree/rows.length).toFixed(2)); console.log(dis.join('\n'));
}
for (const f of ['python_email_validator_cases.json','validatorjs_isemail_cases.json']) {
  const rows = JSON.parse(readFileSync(dir+f,'utf8'));
  for (const r of rows) { const v = classifySyntax(r.address); if (v.ok !== r.valid) console.log(f.slice(0,6), JSON.stringify(r.address).slice(0,70), JSON.stringify(r.options), 'exp', r.valid, 'ours', v.ok?'ok':v.code+' '+v.rule); }
}
