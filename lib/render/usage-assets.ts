// The usage page's style and script, and uPlot (a chart library, MIT, 51 KB) inlined
// from its package, each allowed by hash in the page's Content-Security-Policy, as the
// session pages do: the page needs no network, and nothing else on it can run.
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';

const require = createRequire(import.meta.url);

/** uPlot's script and stylesheet, and the notice its license asks to keep. */
export const UPLOT = {
  script: readFileSync(require.resolve('uplot/dist/uPlot.iife.min.js'), 'utf8'),
  style: readFileSync(require.resolve('uplot/dist/uPlot.min.css'), 'utf8'),
  notice: 'uPlot 1.6.32, MIT License, Copyright (c) 2022 Leon Sorokin',
};

/** The page's own stylesheet: light and dark by the reader's preference. */
export const USAGE_STYLE = `
:root{--bg:#fbfbfa;--fg:#1d1f21;--muted:#6b6f76;--card:#fff;--line:#e3e3e0;color-scheme:light}
@media (prefers-color-scheme:dark){:root{--bg:#16181c;--fg:#e4e6ea;--muted:#9aa0a8;--card:#1f2228;--line:#30343b;color-scheme:dark}}
*{box-sizing:border-box}
body{margin:0;background:var(--bg);color:var(--fg);font:15px/1.5 system-ui,-apple-system,"Segoe UI",Roboto,sans-serif}
main{max-width:72rem;margin:0 auto;padding:1rem 1rem 3rem}
h1{font-size:1.4rem;margin:.5rem 0}h2{font-size:1.05rem;margin:1.5rem 0 .5rem}
.facts{display:flex;flex-wrap:wrap;gap:.75rem;margin:.75rem 0}
.fact{background:var(--card);border:1px solid var(--line);border-radius:10px;padding:.6rem .9rem;min-width:9rem}
.fact b{display:block;font-size:1.25rem}.fact span{color:var(--muted);font-size:.85rem}
.chart{background:var(--card);border:1px solid var(--line);border-radius:10px;padding:.5rem;overflow:hidden}
table{border-collapse:collapse;width:100%;font-size:.85rem;background:var(--card)}
th,td{padding:.3rem .5rem;border-bottom:1px solid var(--line);text-align:right;white-space:nowrap}
th:first-child,td:first-child{text-align:left}
thead th{color:var(--muted);font-weight:600}
tfoot td{font-weight:600}
.note{color:var(--muted);font-size:.85rem}
.uplot,.u-legend{color:var(--fg)}
`;

/**
 * The page's script: draws, from the data block (JSON, never run), the cost and the
 * tokens of each bucket as bars stacked by model. A model's bar is drawn from zero to
 * the sum of it and the models under it, the largest first, so that each shows as a band.
 */
export const USAGE_SCRIPT = `(function(){
var data=JSON.parse(document.getElementById('usage-data').textContent);
var keys=data.keys,models=data.models;
var colors=['#4e79a7','#f28e2b','#e15759','#76b7b2','#59a14f','#edc948','#b07aa1','#ff9da7','#9c755f','#bab0ac','#a0cbe8','#ffbe7d','#ff9d9a','#86bcb6','#8cd17d','#f1ce63','#d4a6c8','#fabfd2','#d7b5a6','#79706e'];
function draw(id,field,label,fmt){
  var el=document.getElementById(id);if(!el||keys.length===0)return;
  var x=keys.map(function(_,i){return i;});
  var sums=keys.map(function(){return 0;});
  var stacked=models.map(function(m){return data.values[m][field].map(function(v,i){sums[i]+=v;return sums[i];});});
  var series=[{label:data.by}],columns=[x];
  for(var j=models.length-1;j>=0;j--){(function(j){
    series.push({label:models[j],fill:colors[j%colors.length],stroke:colors[j%colors.length],width:0,
      paths:uPlot.paths.bars({size:[0.7,64]}),points:{show:false},
      value:function(u,v,si,i){return i==null?'':fmt(data.values[models[j]][field][i]);}});
    columns.push(stacked[j]);})(j);}
  var opts={width:Math.max(320,el.clientWidth-16),height:260,title:label,series:series,
    scales:{x:{time:false,range:[-0.5,keys.length-0.5]}},legend:{live:true},cursor:{points:{show:false}},
    axes:[{values:function(u,splits){return splits.map(function(i){return Number.isInteger(i)&&keys[i]!==undefined?keys[i]:'';});},rotate:-40,size:90,space:24,stroke:getComputedStyle(document.body).color},
      {values:function(u,splits){return splits.map(fmt);},size:70,stroke:getComputedStyle(document.body).color}]};
  new uPlot(opts,columns,el);
}
function dollars(v){return v==null?'':'$'+Number(v).toFixed(v<10?2:0);}
function tokens(v){if(v==null)return '';return v>=1e9?(v/1e9).toFixed(1)+'B':v>=1e6?(v/1e6).toFixed(1)+'M':v>=1e3?(v/1e3).toFixed(0)+'k':String(v);}
draw('cost-chart','cost','Cost (USD) by model',dollars);
draw('tokens-chart','tokens','Tokens (input, output, cache reads and writes) by model',tokens);
})();`;

const sha256 = (text: string) => `'sha256-${createHash('sha256').update(text, 'utf8').digest('base64')}'`;

/** The usage page's Content-Security-Policy: no network, only its own styles and scripts. */
export const USAGE_CSP = [`default-src 'none'`, `style-src ${sha256(UPLOT.style)} ${sha256(USAGE_STYLE)}`, `script-src ${sha256(UPLOT.script)} ${sha256(USAGE_SCRIPT)}`, `img-src data:`, `base-uri 'none'`, `form-action 'none'`].join('; ');
