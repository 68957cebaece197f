// Checks kstatsctl's HdrHistogram interchange against HdrHistogram's own
// JavaScript implementation (hdr-histogram-js, fetched by hdr-js.sh).
//   node hdr-js-check.js export HLOG SHOW.json
//     HLOG (kstatsctl export --format hdr) decoded by hdr-histogram-js holds,
//     per metric of SHOW.json (kstatsctl show -j of the same input): the
//     same total, each slot's count at the slot's last value, nothing else,
//     and getValueAtPercentile(50, 90, 99, 99.9) = the last value of the
//     slot kstatsctl gives for it; at frac_bits 4, the same layout as
//     HdrHistogram's (1 significant digit: 16 sub-buckets per power of two).
//   node hdr-js-check.js write HLOG [DIGITS1 DIGITS2]
//     Writes an interval log with HistogramLogWriter: two tags (their
//     significant digits: 3 and 2 by default), five intervals each, values
//     from seeded distributions (log-uniform; two modes).
//   node hdr-js-check.js read HLOG SHOW.json [NS_PER_UNIT]
//     kstatsctl's reading of HLOG (SHOW.json: show -j -i HLOG) against
//     hdr-histogram-js's: per tag, the intervals summed, the totals agree,
//     each HdrHistogram bucket (its values times NS_PER_UNIT) lies in one
//     kstats slot (its highest value, with another unit) and every slot
//     holds exactly the sum of the buckets in it.
// Prints "ok: ..." lines; exits 1 on the first disagreement.
"use strict";
const fs = require("fs");
const hdr = require("hdr-histogram-js");

function fail(msg) {
	console.error("hdr-js-check: FAIL: " + msg);
	process.exit(1);
}

function readLog(path) {
	const reader = new hdr.HistogramLogReader(fs.readFileSync(path, "utf8"), 64);
	const byTag = new Map();
	let h, n = 0;
	while ((h = reader.nextIntervalHistogram()) !== null) {
		n++;
		const tag = !h.tag || h.tag === "NO TAG" ? "untagged" : h.tag;
		if (!byTag.has(tag))
			byTag.set(tag, hdr.build({ bitBucketSize: 64,
				numberOfSignificantValueDigits: h.numberOfSignificantValueDigits }));
		byTag.get(tag).add(h);
		if (!byTag.get(tag).layout)
			byTag.get(tag).layout = h.subBucketHalfCountMagnitude;
	}
	if (!n)
		fail(path + ": no histograms");
	return byTag;
}

function metrics(showJson) {
	const doc = JSON.parse(fs.readFileSync(showJson, "utf8"));
	if (!doc.metrics)
		fail(showJson + ": no metrics");
	return doc.metrics;
}

function checkExport(hlog, showJson) {
	const byTag = readLog(hlog);
	for (const m of metrics(showJson)) {
		const h = byTag.get(m.name);
		if (!h)
			fail(`${m.name}: not in ${hlog}`);
		if (h.totalCount !== m.count)
			fail(`${m.name}: total ${h.totalCount}, kstatsctl ${m.count}`);
		let sum = 0;
		for (const b of m.buckets) {
			const c = h.getCountAtValue(b.high - 1);
			if (c !== b.count)
				fail(`${m.name}: count at ${b.high - 1} is ${c}, kstats slot ` +
				     `[${b.low}, ${b.high}) holds ${b.count}`);
			sum += c;
		}
		if (sum !== h.totalCount)
			fail(`${m.name}: counts outside the slots' last values`);
		if (m.frac_bits === 4 && h.layout !== 4)
			fail(`${m.name}: frac_bits 4 but sub-bucket half count magnitude ${h.layout}`);
		for (const p of m.percentiles) {
			if (![50, 90, 99, 99.9].includes(p.p))
				continue;
			const v = h.getValueAtPercentile(p.p);
			if (v !== p.high - 1)
				fail(`${m.name}: p${p.p} ${v}, kstatsctl's slot ends at ${p.high - 1}`);
		}
		console.log(`ok: ${m.name} (frac_bits ${m.frac_bits}): ${m.count} samples, ` +
			    `${m.buckets.length} slots, p50/90/99/99.9 agree`);
	}
}

// A seeded generator (xorshift32), so the log is the same every run.
function rng(seed) {
	let x = seed >>> 0;
	return () => {
		x ^= x << 13; x >>>= 0;
		x ^= x >>> 17;
		x ^= x << 5; x >>>= 0;
		return x / 4294967296;
	};
}

function write(hlog, d1, d2) {
	let text = "";
	const w = new hdr.HistogramLogWriter((s) => { text += s; });
	const rand = rng(20261124);
	const base = 1795300000000;
	w.outputLogFormatVersion();
	w.outputStartTime(base);
	w.outputLegend();
	// app.latency: 1 us .. 10 ms; app.bimodal: two modes; significant
	// digits as asked (HdrHistogram's default is 3).
	for (let i = 0; i < 5; i++) {
		for (const [tag, digits] of [["app.latency", d1], ["app.bimodal", d2]]) {
			const h = hdr.build({ numberOfSignificantValueDigits: digits, bitBucketSize: 64 });
			h.tag = tag;
			for (let k = 0; k < 2000 + 100 * i; k++) {
				let v;
				if (tag === "app.latency")
					v = Math.floor(1000 * Math.pow(10000, rand()));
				else
					v = Math.floor((rand() < 0.7 ? 20000 : 900000) * (0.9 + 0.2 * rand()));
				h.recordValue(v);
			}
			w.outputIntervalHistogram(h, i, i + 1, 1e6);
		}
	}
	fs.writeFileSync(hlog, text);
	console.log(`ok: wrote ${hlog}`);
}

function checkRead(hlog, showJson, scale) {
	const byTag = readLog(hlog);
	const ms = metrics(showJson);
	if (ms.length !== byTag.size)
		fail(`${ms.length} metrics, hdr-histogram-js reads ${byTag.size} tags`);
	for (const m of ms) {
		const h = byTag.get(m.name);
		if (!h)
			fail(`${m.name}: not a tag of ${hlog}`);
		if (h.totalCount !== m.count)
			fail(`${m.name}: total ${m.count}, hdr-histogram-js ${h.totalCount}`);
		if (!m.buckets) {	// summary: the counts only
			console.log(`ok: ${m.name}: ${m.count} samples, as hdr-histogram-js counts them`);
			continue;
		}
		// Every HdrHistogram bucket, lowest to highest value, in ns: it must
		// lie in one kstats slot, and the slot's count be the sum of them.
		const want = new Map();
		for (let i = 0; i < h.countsArrayLength; i++) {
			const c = h.getCountAtIndex(i);
			if (!c)
				continue;
			const v = h.valueFromIndex(i);
			const lo = h.lowestEquivalentValue(v) * scale;
			const hi = h.highestEquivalentValue(v) * scale;
			const b = m.buckets.find((b) => b.low <= hi && hi < b.high);
			if (!b || (scale === 1 && lo < b.low))
				fail(`${m.name}: HdrHistogram's bucket [${lo}, ${hi}] is not ` +
				     `inside one of kstatsctl's slots`);
			want.set(b, (want.get(b) || 0) + c);
		}
		for (const b of m.buckets)
			if (want.get(b) !== b.count)
				fail(`${m.name}: slot [${b.low}, ${b.high}) holds ${b.count}, ` +
				     `hdr-histogram-js counts ${want.get(b) || 0} in it`);
		console.log(`ok: ${m.name}: ${m.count} samples in ${m.buckets.length} slots ` +
			    `(frac_bits ${m.frac_bits}) as hdr-histogram-js counts them`);
	}
}

const [cmd, ...args] = process.argv.slice(2);
if (cmd === "export")
	checkExport(args[0], args[1]);
else if (cmd === "write")
	write(args[0], Number(args[1] || 3), Number(args[2] || 2));
else if (cmd === "read")
	checkRead(args[0], args[1], Number(args[2] || 1));
else
	fail("usage: export HLOG SHOW.json | write HLOG [D1 D2] | read HLOG SHOW.json [SCALE]");
