import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { EmbeddedKnowledgeStore } from './engine/knowledge/embedded-store.ts';
const dir = process.env.PDIR || mkdtempSync(path.join(tmpdir(), 'prof-'));
const SY = ['ka','lo','mi','ne','ru','ta','vo','zi','pe','sa','do','fu','gi','ha','ju','be'];
const w = (i:number)=>{let s='',n=i+1;while(n>0){s+=SY[n%16];n=Math.floor(n/16);}return s;};
if (!process.env.PDIR) {
const s = new EmbeddedKnowledgeStore({ dir });
await s.ensureIndex({ kbId: 'kb', dimension: 512 });
const N=100000;
for (let i=0;i<N;i+=1000) await s.upsertChunks('kb', Array.from({length:1000},(_,k)=>{const j=i+k; return {id:`d${Math.floor(j/10)}:${j%10}`, documentId:`d${Math.floor(j/10)}`, title:`Doc ${Math.floor(j/10)}`, chunkIndex:j%10, start:0,end:10,page:null,text:Array.from({length:70},(_,x)=>w((j*7+x*13)%30000)).join(' '), vector: Float32Array.from({length:512},()=>Math.random()-0.5)};}));
await s.close(); console.log(dir);
} else {
let t=performance.now(); const s2 = new EmbeddedKnowledgeStore({ dir }); await s2.count('kb'); console.log('reload', performance.now()-t);
}
