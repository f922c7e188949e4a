/** Medians, ratios, targets and the noise check, as a markdown report. */

/** The servers a report knows, in column order, with their column headings. */
export const columns = [
    {name: 'ours', heading: 'ours'},
    {name: 'twin', heading: 'ours′ (same code)'},
    {name: 'floor', heading: 'floor'},
    {name: 'sigfloor', heading: 'floor+signal'},
    {name: 'sdk', heading: 'SDK v1'},
    {name: 'sdk2', heading: 'SDK v2'},
    {name: 'base', heading: 'base'},
];

/** Every reported figure: how it reads and which way is better. */
export const figures = [
    {key: 'pipeRps', label: 'echo pipelined throughput', unit: 'req/s', better: 'higher'},
    {key: 'pipeP50', label: 'echo pipelined p50', unit: 'µs', better: 'lower'},
    {key: 'pipeP99', label: 'echo pipelined p99', unit: 'µs', better: 'lower'},
    {key: 'cpuPerCall', label: 'server CPU per pipelined call', unit: 'µs', better: 'lower'},
    {key: 'pipePeakRss', label: 'peak RSS, pipelined', unit: 'MiB', better: 'lower'},
    {key: 'modernRps', label: 'modern-era echo pipelined throughput', unit: 'req/s', better: 'higher'},
    {key: 'modernP50', label: 'modern-era echo pipelined p50', unit: 'µs', better: 'lower'},
    {key: 'modernP99', label: 'modern-era echo pipelined p99', unit: 'µs', better: 'lower'},
    {key: 'modernCpuPerCall', label: 'server CPU per modern-era call', unit: 'µs', better: 'lower'},
    {key: 'modernPeakRss', label: 'peak RSS, modern-era pipelined', unit: 'MiB', better: 'lower'},
    {key: 'validRps', label: 'validated tool pipelined throughput', unit: 'req/s', better: 'higher'},
    {key: 'validP50', label: 'validated tool pipelined p50', unit: 'µs', better: 'lower'},
    {key: 'validP99', label: 'validated tool pipelined p99', unit: 'µs', better: 'lower'},
    {key: 'validCpuPerCall', label: 'server CPU per validated call', unit: 'µs', better: 'lower'},
    {
        key: 'validEchoCpuPerCall',
        label: 'server CPU per echo call beside it (ours: unvalidated)',
        unit: 'µs',
        better: 'lower',
    },
    {key: 'validateAlone', label: "the schema's validate alone, CPU per call", unit: 'µs', better: 'lower'},
    {key: 'validBudget', label: 'unvalidated echo call + validate alone', unit: 'µs', better: 'lower'},
    {key: 'seqRps', label: 'echo sequential throughput', unit: 'req/s', better: 'higher'},
    {key: 'seqP50', label: 'echo sequential p50', unit: 'µs', better: 'lower'},
    {key: 'seqP99', label: 'echo sequential p99', unit: 'µs', better: 'lower'},
    {key: 'seqCpuPerCall', label: 'server CPU per sequential call', unit: 'µs', better: 'lower'},
    {key: 'fanOutColdMs', label: 'fan-out wall time, first in a fresh process', unit: 'ms', better: 'lower'},
    {key: 'fanOutMs', label: 'fan-out wall time', unit: 'ms', better: 'lower'},
    {key: 'fanOutCpuPerCall', label: 'server CPU per fan-out call', unit: 'µs', better: 'lower'},
    {key: 'fanOutPeakRss', label: 'peak RSS, fan-out', unit: 'MiB', better: 'lower'},
    {key: 'stormQuietMs', label: 'cancel storm: time until quiet', unit: 'ms', better: 'lower'},
    {
        key: 'stormAnswered',
        label: 'cancel storm: responses to cancelled ids (worst round)',
        unit: 'count',
        better: 'lower',
        worst: true,
    },
    {key: 'bigMiBps', label: '4 MiB results', unit: 'MiB/s', better: 'higher'},
    {key: 'startup', label: 'start-up to initialize result', unit: 'ms', better: 'lower'},
    {key: 'modernStartup', label: 'start-up to server/discover result', unit: 'ms', better: 'lower'},
    {key: 'idleRss', label: 'idle RSS', unit: 'MiB', better: 'lower'},
];

/**
 * The targets, as ratios of ours to a peer (`of`: another server's median of the same figure, or
 * `ofFigure`: another figure of ours, such as the validated tool's budget). Issues 14 and 20,
 * then issue 21's validated tool, then the ones of issue 5 that 14 does not replace.
 */
export const targets = [
    {issue: 14, key: 'fanOutMs', of: 'sigfloor', op: '≤', value: 1.05},
    {issue: 20, key: 'fanOutColdMs', of: 'sigfloor', op: '≤', value: 1.1},
    {issue: 14, key: 'fanOutPeakRss', of: 'sigfloor', op: '≤', value: 1.05},
    {issue: 14, key: 'stormQuietMs', of: 'sigfloor', op: '≤', value: 1.2},
    {issue: 14, key: 'bigMiBps', of: 'floor', op: '≥', value: 0.95},
    {issue: 14, key: 'seqP99', of: 'floor', op: '≤', value: 1.5},
    {issue: 14, key: 'seqP50', of: 'floor', op: '≤', value: 1.2},
    {issue: 14, key: 'pipeRps', of: 'floor', op: '≥', value: 0.8},
    {issue: 14, key: 'pipeRps', of: 'sdk', op: '≥', value: 3},
    {issue: 14, key: 'pipeRps', of: 'sdk2', op: '≥', value: 3},
    {issue: 14, key: 'modernRps', of: 'sdk2', op: '≥', value: 3},
    {issue: 20, key: 'modernCpuPerCall', of: 'sigfloor', op: '≤', value: 1.15},
    {issue: 14, key: 'stormAnswered', op: '=', value: 0},
    {issue: 21, key: 'validRps', of: 'sdk2', op: '≥', value: 2},
    {issue: 21, key: 'validCpuPerCall', ofFigure: 'validBudget', op: '≤', value: 1.1},
    {issue: 5, key: 'cpuPerCall', of: 'floor', op: '≤', value: 1.6},
    {issue: 5, key: 'startup', of: 'floor', op: '≤', value: 1.3},
    {issue: 5, key: 'pipePeakRss', of: 'floor', op: '≤', value: 1.3},
];

const NOT_SUPPORTED = 'n/a (not supported by this build)';

export function median(values) {
    const sorted = values.filter((value) => Number.isFinite(value)).sort((a, b) => a - b);
    if (sorted.length === 0) return Number.NaN;
    const middle = sorted.length >> 1;
    return sorted.length % 2 === 1 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2;
}

export function format(value) {
    if (!Number.isFinite(value)) return 'n/a';
    const magnitude = Math.abs(value);
    if (magnitude >= 1000) return Math.round(value).toLocaleString('en-US');
    if (magnitude >= 100) return value.toFixed(0);
    if (magnitude >= 10) return value.toFixed(1);
    return value.toFixed(2);
}

function ratio(a, b) {
    return Number.isFinite(a) && Number.isFinite(b) && b !== 0 ? a / b : Number.NaN;
}

function figureOf(key) {
    return figures.find((figure) => figure.key === key);
}

/** The value a figure is judged on for one server: the median over rounds, or the worst round. */
function aggregate(samples, server, key) {
    const values = (samples[server]?.[key] ?? []).filter((value) => Number.isFinite(value));
    if (values.length === 0) return Number.NaN;
    if (!figureOf(key)?.worst) return median(values);
    return figureOf(key).better === 'lower' ? Math.max(...values) : Math.min(...values);
}

/** A server that ran the modern scenario and answered the probe with an error in every round. */
function modernUnsupported(samples, server, key) {
    const served = samples[server]?.modernServed;
    return key.startsWith('modern') && served?.every((value) => value === 0) === true;
}

function cell(samples, server, key) {
    if (modernUnsupported(samples, server, key)) return NOT_SUPPORTED;
    const value = aggregate(samples, server, key);
    return figureOf(key).unit === 'count' && Number.isFinite(value) ? String(value) : format(value);
}

/** Ours (or its same-code twin) against a target's peer. */
function targetRatio(samples, target, self) {
    const mine = aggregate(samples, self, target.key);
    if (target.op === '=') return mine;
    const peer =
        target.ofFigure !== undefined
            ? aggregate(samples, self, target.ofFigure)
            : aggregate(samples, target.of, target.key);
    return ratio(mine, peer);
}

function describeTarget(target) {
    const figure = figureOf(target.key);
    if (target.op === '=') return `${figure.label}: ${target.value}`;
    const peer =
        target.ofFigure !== undefined
            ? `our own ${figureOf(target.ofFigure).label}`
            : columns.find((column) => column.name === target.of).heading;
    return `${figure.label} ${target.op} ${target.value} × ${peer}`;
}

/**
 * Judges one target: `{ratio, noise, met, mark}`. The noise is how far the same-code twin's ratio
 * lies from ours (|twin ÷ ours − 1|); a verdict whose margin to the target is smaller than that is
 * marked "within noise": another run may well flip it.
 */
export function judge(samples, target) {
    const measured = targetRatio(samples, target, 'ours');
    const twin = targetRatio(samples, target, 'twin');
    if (target.op === '=') {
        if (!Number.isFinite(measured))
            return {ratio: measured, noise: Number.NaN, met: undefined, mark: 'n/a'};
        const met = measured === target.value && (!Number.isFinite(twin) || twin === target.value);
        return {ratio: measured, noise: Number.NaN, met, mark: met ? 'yes' : '**no**'};
    }
    const noise = Math.abs(ratio(twin, measured) - 1);
    if (!Number.isFinite(measured)) {
        const unsupported = modernUnsupported(samples, 'ours', target.key);
        return {ratio: measured, noise, met: undefined, mark: unsupported ? NOT_SUPPORTED : 'n/a'};
    }
    const met = target.op === '≥' ? measured >= target.value : measured <= target.value;
    const margin = Math.abs(measured / target.value - 1);
    const close = Number.isFinite(noise) && margin < noise;
    const mark = met ? (close ? 'yes, within noise' : 'yes') : close ? '**no**, within noise' : '**no**';
    return {ratio: measured, noise, met, mark};
}

/**
 * `samples[server][key]` is a list of numbers (one per round). Returns {markdown, verdicts}, where
 * verdicts[i] is judge() of targets[i].
 */
/** What the report says of the sequential scenario's CPU pinning (bench/pin.mjs), by run.mjs's record of it. */
const SEQUENTIAL_PINNING = {
    on: ' Sequential echo ran with the driver and every server on one CPU (bench/pin.mjs).',
    off:
        ' Sequential echo ran unpinned (BENCH_PIN=0, or no taskset here): its latencies carry where the ' +
        'scheduler placed each server.',
    mixed: ' Sequential echo ran on one CPU in some rounds only: read its latencies as unpinned.',
};

export function buildReport(samples, meta) {
    const present = columns.filter((column) => samples[column.name] !== undefined);
    const lines = [
        `## Node ${meta.node}`,
        '',
        `${meta.rounds} rounds (orders ${meta.orders.join(' | ')}), ${meta.cpus} CPUs (${meta.cpuModel}), ` +
            `${meta.seconds.toFixed(0)} s. Medians over rounds. "floor" is the bare newline-JSON loop; ` +
            '"floor+signal" adds one AbortController per cancellable call; "ours′" runs the same code as ' +
            'ours and measures the noise.' +
            (SEQUENTIAL_PINNING[meta.sequentialPinned] ?? ''),
        '',
        '### Targets',
        '',
        '| target | ours | noise | met |',
        '| --- | ---: | ---: | :---: |',
    ];
    const verdicts = targets.map((target) => judge(samples, target));
    targets.forEach((target, index) => {
        const verdict = verdicts[index];
        const shown = target.op === '=' ? String(verdict.ratio) : `${format(verdict.ratio)}×`;
        const noise = Number.isFinite(verdict.noise) ? `±${(100 * verdict.noise).toFixed(0)} %` : '';
        lines.push(
            `| ${describeTarget(target)} (issue ${target.issue}) | ${Number.isFinite(verdict.ratio) ? shown : 'n/a'} | ` +
                `${noise} | ${verdict.mark} |`,
        );
    });
    lines.push(
        '',
        '### Medians',
        '',
        `| figure | unit | ${present.map((column) => column.heading).join(' | ')} |`,
        `| --- | --- | ${present.map(() => '---:').join(' | ')} |`,
    );
    for (const figure of figures) {
        const row = present.map((column) => cell(samples, column.name, figure.key));
        if (row.every((text) => text === 'n/a')) continue;
        lines.push(`| ${figure.label} | ${figure.unit} | ${row.join(' | ')} |`);
    }
    const peers = present.filter((column) => column.name !== 'ours' && column.name !== 'twin');
    lines.push(
        '',
        '### Ratios (ours ÷ peer; noise is ours′ ÷ ours)',
        '',
        `| figure | ${peers.map((column) => `÷ ${column.heading}`).join(' | ')} | noise |`,
        `| --- | ${peers.map(() => '---:').join(' | ')} | ---: |`,
    );
    let unsupportedShown = false;
    for (const figure of figures) {
        if (figure.key === 'stormAnswered') continue;
        const ours = aggregate(samples, 'ours', figure.key);
        if (modernUnsupported(samples, 'ours', figure.key)) {
            if (!unsupportedShown) {
                lines.push(`| modern-era figures | ${peers.map(() => NOT_SUPPORTED).join(' | ')} | n/a |`);
                unsupportedShown = true;
            }
            continue;
        }
        if (!Number.isFinite(ours)) continue;
        const row = peers.map((column) => format(ratio(ours, aggregate(samples, column.name, figure.key))));
        const noise = format(ratio(aggregate(samples, 'twin', figure.key), ours));
        lines.push(`| ${figure.label} | ${row.join(' | ')} | ${noise} |`);
    }
    lines.push('', `Counts: ${JSON.stringify(meta.counts)}`, '');
    return {markdown: lines.join('\n'), verdicts};
}

/** One table of every target's ratio and verdict under each Node major that ran. */
export function buildSummary(runs) {
    const lines = [
        '## Targets per Node major',
        '',
        `| target | ${runs.map((run) => `Node ${run.major}`).join(' | ')} |`,
        `| --- | ${runs.map(() => ':---:').join(' | ')} |`,
    ];
    targets.forEach((target, index) => {
        const cells = runs.map((run) => {
            const verdict = run.verdicts[index];
            if (!Number.isFinite(verdict.ratio)) return verdict.mark;
            const shown = target.op === '=' ? String(verdict.ratio) : `${format(verdict.ratio)}×`;
            return `${shown} ${verdict.mark}`;
        });
        lines.push(`| ${describeTarget(target)} | ${cells.join(' | ')} |`);
    });
    lines.push('');
    return lines.join('\n');
}
