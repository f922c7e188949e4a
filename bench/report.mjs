/** Medians, ratios and targets, as a markdown report. */

/** Every reported figure: how it reads, which way is better, and the target for ours. */
export const figures = [
    {
        key: 'pipeRps',
        label: 'echo pipelined throughput',
        unit: 'req/s',
        better: 'higher',
        target: {floor: 0.6, sdk: 2},
    },
    {key: 'pipeP50', label: 'echo pipelined p50', unit: 'µs', better: 'lower'},
    {key: 'pipeP99', label: 'echo pipelined p99', unit: 'µs', better: 'lower'},
    {
        key: 'cpuPerCall',
        label: 'server CPU per pipelined call',
        unit: 'µs',
        better: 'lower',
        target: {floor: 1.6},
    },
    {key: 'seqRps', label: 'echo sequential throughput', unit: 'req/s', better: 'higher'},
    {key: 'seqP50', label: 'echo sequential p50', unit: 'µs', better: 'lower', target: {floor: 1.3}},
    {key: 'seqCpuPerCall', label: 'server CPU per sequential call', unit: 'µs', better: 'lower'},
    {key: 'seqP99', label: 'echo sequential p99', unit: 'µs', better: 'lower'},
    {key: 'fanOutMs', label: 'fan-out wall time', unit: 'ms', better: 'lower', target: {floor: 1.5}},
    {key: 'fanOutCpuPerCall', label: 'server CPU per fan-out call', unit: 'µs', better: 'lower'},
    {
        key: 'startup',
        label: 'start-up to initialize result',
        unit: 'ms',
        better: 'lower',
        target: {floor: 1.3},
    },
    {key: 'idleRss', label: 'idle RSS', unit: 'MiB', better: 'lower'},
    {key: 'pipePeakRss', label: 'peak RSS, pipelined', unit: 'MiB', better: 'lower', target: {floor: 1.3}},
    {key: 'fanOutPeakRss', label: 'peak RSS, fan-out', unit: 'MiB', better: 'lower', target: {floor: 1.3}},
    {
        key: 'stormQuietMs',
        label: 'cancel storm: time until quiet',
        unit: 'ms',
        better: 'lower',
        target: {floor: 2},
    },
    {
        key: 'stormAnswered',
        label: 'cancel storm: responses to cancelled ids',
        unit: 'count',
        better: 'lower',
        target: {zero: true},
    },
    {key: 'bigMiBps', label: 'big payload', unit: 'MiB/s', better: 'higher', target: {floor: 0.9}},
];

export function median(values) {
    const sorted = values.filter((value) => Number.isFinite(value)).sort((a, b) => a - b);
    if (sorted.length === 0) return Number.NaN;
    const middle = sorted.length >> 1;
    return sorted.length % 2 === 1 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2;
}

function format(value) {
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

function verdict(figure, ours, toFloor, toSdk) {
    const target = figure.target;
    if (target === undefined) return {text: '', met: undefined};
    if (!Number.isFinite(ours)) return {text: '', met: undefined};
    if (target.zero) return {text: '0', met: ours === 0};
    const parts = [];
    let met = true;
    const higher = figure.better === 'higher';
    if (target.floor !== undefined) {
        parts.push(`${higher ? '≥' : '≤'} ${target.floor} × floor`);
        met &&= higher ? toFloor >= target.floor : toFloor <= target.floor;
    }
    if (target.sdk !== undefined) {
        parts.push(`${higher ? '≥' : '≤'} ${target.sdk} × SDK`);
        met &&= higher ? toSdk >= target.sdk : toSdk <= target.sdk;
    }
    return {text: parts.join(' and '), met};
}

/** `samples[server][key]` is a list of numbers. Returns {markdown, summary}. */
export function buildReport(samples, meta) {
    const lines = [
        `# arcane-os/mcp/stdio bench — ${meta.date}`,
        '',
        `${meta.rounds} rounds (orders ${meta.orders.join(', ')}), node ${meta.node}, ${meta.cpus} CPUs (${meta.cpuModel}), ` +
            `${meta.seconds.toFixed(0)} s. Medians over rounds; ratios are ours ÷ peer.`,
        '',
        '| figure | unit | ours | SDK | floor | ours/floor | ours/SDK | target | met |',
        '| --- | --- | ---: | ---: | ---: | ---: | ---: | --- | :---: |',
    ];
    const summary = {};
    const base = samples.base !== undefined;
    if (base) {
        lines[lines.length - 2] += ' base | ours/base |';
        lines[lines.length - 1] += ' ---: | ---: |';
    }
    for (const figure of figures) {
        const ours = median(samples.ours?.[figure.key] ?? []);
        const sdk = median(samples.sdk?.[figure.key] ?? []);
        const floor = median(samples.floor?.[figure.key] ?? []);
        const toFloor = ratio(ours, floor);
        const toSdk = ratio(ours, sdk);
        const {text, met} = verdict(figure, ours, toFloor, toSdk);
        summary[figure.key] = {ours, sdk, floor, toFloor, toSdk, met};
        const mark = met === undefined ? '' : met ? 'yes' : '**no**';
        lines.push(
            `| ${figure.label} | ${figure.unit} | ${format(ours)} | ${format(sdk)} | ${format(floor)} | ` +
                `${format(toFloor)} | ${format(toSdk)} | ${text} | ${mark} |` +
                (base
                    ? ` ${format(median(samples.base[figure.key] ?? []))} | ${format(ratio(ours, median(samples.base[figure.key] ?? [])))} |`
                    : ''),
        );
    }
    lines.push('', `Counts: ${JSON.stringify(meta.counts)}`, '');
    return {markdown: lines.join('\n'), summary};
}
