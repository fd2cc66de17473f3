#!/usr/bin/env python3
"""papers_tables.py: the markdown tables of docs/REPRODUCTION.md from the
results of the scenarios in scenarios/papers/ and of the offline replays,
for study/papers.sh. Each subcommand reads one run or sweep directory (or
one replay output) and prints one table. Means and 95% half-widths come
from reckond's summary.csv/sweep.csv as printed there; the paired changes
(a predictor against the baseline lane of the same repetition, which
plays the same movement) are computed here from the repetitions' metrics
files: per repetition, updates are the players' `sent` summed over
entities and the error is the observers' err_mean weighted by frames;
the change is 100 (x / base - 1), given as its mean over repetitions with
a two-sided 95% Student t half-width. The `lags` table gives it for the
error of every lane against the first, at each point of the sweep.

usage: papers_tables.py predictors RUN_DIR BASELINE
       papers_tables.py lagcomp RUN_DIR
       papers_tables.py lags SWEEP_DIR
       papers_tables.py tau SWEEP_DIR UNIT
       papers_tables.py led REPLAY_OUTPUT
"""
import csv
import glob
import math
import os
import re
import statistics as st
import sys

# two-sided 95% Student t quantiles t(0.975, df)
T95 = {1: 12.706, 2: 4.303, 3: 3.182, 4: 2.776, 5: 2.571, 6: 2.447,
       7: 2.365, 8: 2.306, 9: 2.262, 10: 2.228, 11: 2.201, 12: 2.179,
       13: 2.160, 14: 2.145, 15: 2.131, 19: 2.093, 29: 2.045}


def t95(df):
    """Two-sided 95% t quantile for df degrees of freedom (df >= 1)."""
    if df in T95:
        return T95[df]
    if df > 29:
        return 1.96
    # the quantile of the next smaller df in the table: wider
    return T95[max(k for k in T95 if k < df)]


def ci(v):
    """Mean and 95% t half-width of the values v (nan with one value)."""
    m = st.mean(v)
    if len(v) < 2:
        return m, float('nan')
    return m, t95(len(v) - 1) * st.stdev(v) / math.sqrt(len(v))


def rows(path):
    with open(path, newline='') as f:
        return list(csv.DictReader(f))


def pm(row, col, fmt='{:.2f}'):
    """'mean ± ci' of column col of a summary row."""
    m, h = float(row[col]), row.get(col + '_ci95', '')
    s = fmt.format(m)
    if h not in ('', None):
        s += ' ± ' + fmt.format(float(h))
    return s


def rep_dirs(run):
    d = sorted(glob.glob(os.path.join(run, 'rep-*')),
               key=lambda p: int(p.rsplit('-', 1)[1]))
    return d or [run]


def per_rep(run):
    """{predictor: [(updates, err_mean), ...]} over the repetitions."""
    out = {}
    for rd in rep_dirs(run):
        sent, ew, fr = {}, {}, {}
        for m in glob.glob(os.path.join(rd, 'metrics-*.csv')):
            for r in rows(m):
                p = r['predictor']
                if r['role'] == 'player':
                    sent[p] = sent.get(p, 0) + int(r['sent'])
                elif r['role'] == 'observer':
                    f = int(r['frames'])
                    ew[p] = ew.get(p, 0.0) + f * float(r['err_mean'])
                    fr[p] = fr.get(p, 0) + f
        for p in sent:
            out.setdefault(p, []).append(
                (sent[p], ew[p] / fr[p] if fr.get(p) else float('nan')))
    return out


def change(xs, bs, k):
    """Paired change in % of component k, as 'mean ± ci %'."""
    v = [100.0 * (x[k] / b[k] - 1.0) for x, b in zip(xs, bs)]
    m, h = ci(v)
    return f'{m:+.1f} ± {h:.1f} %'


def cmd_predictors(run, base):
    s = rows(os.path.join(run, 'summary.csv'))
    pr = per_rep(run)
    print('| predictor | reps | updates/s per entity | error mean (u) | '
          'error p95 (u) | updates vs ' + base + ' (paired) | '
          'error vs ' + base + ' (paired) |')
    print('|---|---|---|---|---|---|---|')
    for r in s:
        p = r['predictor']
        if p == base:
            d1 = d2 = '(baseline)'
        else:
            d1 = change(pr[p], pr[base], 0)
            d2 = change(pr[p], pr[base], 1)
        print(f"| {p} | {r['repetitions']} | {pm(r, 'updates_per_s')} | "
              f"{pm(r, 'err_mean')} | {pm(r, 'err_p95')} | {d1} | {d2} |")


def cmd_lagcomp(run):
    s = rows(os.path.join(run, 'summary.csv'))
    print('| server | reps | SBC per 100 hits, low-ping victims | '
          'high-ping victims | hits on low-ping victims | SBC on them | '
          'hit-registration accuracy | ALC provisional | ALC timeouts |')
    print('|---|---|---|---|---|---|---|---|---|')
    for r in s:
        if not r['predictor'].startswith('lagcomp-'):
            continue
        mode = r['predictor'][len('lagcomp-'):].upper()
        print(f"| {mode} | {r['repetitions']} | {pm(r, 'lc_sbc100_low')} | "
              f"{pm(r, 'lc_sbc100_high')} | {pm(r, 'lc_hits_low', '{:.1f}')}"
              f" | {pm(r, 'lc_sbc_low', '{:.1f}')} | "
              f"{pm(r, 'lc_reg_accuracy', '{:.3f}')} | "
              f"{pm(r, 'lc_provisional', '{:.1f}')} | "
              f"{pm(r, 'lc_timeouts', '{:.1f}')} |")
    # pooled over the repetitions, as the thesis pools its 12 players
    tot = {}
    for rd in rep_dirs(run):
        for f in sorted(glob.glob(os.path.join(rd, 'lagcomp-*.csv'))):
            for r in rows(f):
                if r.get('host') == 'host' or 'hits_low' not in r:
                    continue
                k = os.path.basename(f)[len('lagcomp-'):-4]
                h, b = tot.get(k, (0, 0))
                tot[k] = (h + int(r['hits_low']), b + int(r['sbc_low']))
    for k, (h, b) in sorted(tot.items()):
        print(f'\n{k}, pooled over the repetitions: {b} SBC of {h} hits on '
              f'low-ping victims = {100.0 * b / h:.2f} %' if h else '')


def sweep_points(sw):
    """[(point, {axis: value}, {predictor: row})] of a sweep."""
    s = rows(os.path.join(sw, 'sweep.csv'))
    axes = [c for c in s[0] if c.startswith(('link.', 'predictor.'))]
    pts = {}
    for r in s:
        k = int(r['point'])
        pts.setdefault(k, ({a: r[a] for a in axes}, {}))[1][r['predictor']] = r
    return [(k, pts[k][0], pts[k][1]) for k in sorted(pts)]


def point_dir(sw, k):
    return os.path.join(sw, 'points', f'p{k:06d}')


def cmd_lags(sw):
    pts = sweep_points(sw)
    preds = list(pts[0][2])
    lags = [a['link.delay'] for _, a, _ in pts]
    print('| predictor | ' + ' | '.join(lags) + ' |')
    print('|---' * (len(lags) + 1) + '|')
    for p in preds:
        print(f'| {p} | ' + ' | '.join(pm(r[p], 'err_mean', '{:.1f}')
                                       for _, _, r in pts) + ' |')
    base = preds[0]
    reps = [per_rep(point_dir(sw, k)) for k, _, _ in pts]
    print(f'\nerror against {base}, paired per repetition:\n')
    print('| predictor | ' + ' | '.join(lags) + ' |')
    print('|---' * (len(lags) + 1) + '|')
    for p in preds[1:]:
        print(f'| {p} | ' + ' | '.join(change(pr[p], pr[base], 1)
                                       for pr in reps) + ' |')
    print('\nupdates/s per entity at 0 ms (threshold 32 u; the delay does '
          'not change what a sender sends):\n')
    print('| ' + ' | '.join(preds) + ' |')
    print('|---' * len(preds) + '|')
    r0 = pts[0][2]
    print('| ' + ' | '.join(pm(r0[p], 'updates_per_s', '{:.3f}')
                            for p in preds) + ' |')


def cmd_tau(sw, unit):
    pts = sweep_points(sw)
    by = {}
    for k, a, r in pts:
        by.setdefault(a['predictor.dhsm.tau'], {})[
            a['predictor.dhsm.models']] = (k, r['dhsm'])
    print('| τ (Torque units) | τ (u) | updates/s DR | updates/s DHSM | '
          'updates DHSM vs DR (paired) | E DR (u) | E DHSM (u) | '
          'E DHSM vs DR (paired) |')
    print('|---:|---:|---:|---:|---:|---:|---:|---:|')
    for tau in sorted(by, key=float):
        (kd, rd), (kh, rh) = by[tau]['dr'], by[tau]['dr+sp']
        d = per_rep(point_dir(sw, kd))['dhsm']
        h = per_rep(point_dir(sw, kh))['dhsm']
        print(f'| {float(tau) / unit:.1f} | {tau} | '
              f"{pm(rd, 'updates_per_s', '{:.3f}')} | "
              f"{pm(rh, 'updates_per_s', '{:.3f}')} | {change(h, d, 0)} | "
              f"{pm(rd, 'err_mean')} | {pm(rh, 'err_mean')} | "
              f'{change(h, d, 1)} |')


def cmd_led(path):
    with open(path) as f:
        txt = f.read()
    print('| metric | DR (η = 20 u) mean ± SD [95% CI] | led (η ∈ [5, 35] '
          'u) mean ± SD [95% CI] | change | t | df | p | d |')
    print('|---|---|---|---|---|---|---|---|')
    n = int(re.search(r': (\d+) of \d+ paths', txt).group(1))
    h = t95(n - 1) / math.sqrt(n)
    for line in txt.splitlines():
        m = re.match(r'(updates_per_s|err_mean)\s+([\d.]+) ± ([\d.]+)\s+'
                     r'([\d.]+) ± ([\d.]+)\s+(\S+)\s+(\S+)\s+(\S+)\s+(\S+)',
                     line)
        if not m:
            continue
        a, sa, b, sb = (float(m.group(i)) for i in range(2, 6))
        print(f'| {m.group(1)} | {a:.4f} ± {sa:.4f} [± {h * sa:.4f}] | '
              f'{b:.4f} ± {sb:.4f} [± {h * sb:.4f}] | '
              f'{100 * (b / a - 1):+.1f} % | {m.group(6)} | {m.group(7)} | '
              f'{m.group(8)} | {m.group(9)} |')


def cos(ax, ay, bx, by):
    na, nb = math.hypot(ax, ay), math.hypot(bx, by)
    return (ax * bx + ay * by) / (na * nb) if na > 0 and nb > 0 else None


def cmd_patterns(*traces):
    """How the bots of the traces move against EKB's and TDM's premises:
    EKB's follow velocity runs at the team's centroid at full speed (out
    of battle with weight beta = 0.7), TDM keeps the velocity."""
    n = still = moving = to_c = away_c = 0
    keep = {}
    for path in traces:
        ent = {}
        with open(path) as f:
            lines = [l for l in f if not l.startswith('#')]
        for r in csv.DictReader(lines):
            if r['alive'] != '1':
                continue
            t = round(float(r['t']) * 64)
            ent.setdefault(int(r['entity']), {})[t] = (
                int(r['team']), float(r['x']), float(r['y']),
                float(r['vx']), float(r['vy']))
        ticks = {}
        for e, s in ent.items():
            for t, v in s.items():
                ticks.setdefault(t, []).append((e, v))
        for t, es in ticks.items():
            for e, (team, x, y, vx, vy) in es:
                n += 1
                sp = math.hypot(vx, vy)
                if sp < 10:
                    still += 1
                    continue
                mates = [(v[1], v[2]) for o, v in es
                         if o != e and v[0] == team]
                if sp < 50 or not mates:
                    continue
                moving += 1
                cx = sum(m[0] for m in mates) / len(mates)
                cy = sum(m[1] for m in mates) / len(mates)
                c = cos(vx, vy, cx - x, cy - y)
                if c is not None and c > 0.9:
                    to_c += 1
                elif c is not None and c < 0:
                    away_c += 1
                for lag in (19, 58, 134):  # 300, 900, 2100 ms at 64 Hz
                    w = ent[e].get(t + lag)
                    if w is None:
                        continue
                    c2 = cos(vx, vy, w[3], w[4])
                    k = keep.setdefault(lag, [0, 0])
                    k[0] += 1
                    k[1] += c2 is not None and c2 > 0.9
    print('| living samples | still (< 10 u/s) | moving (> 50 u/s, with '
          'teammates) | of those: at the team centroid (cos > 0.9) | away '
          'from it (cos < 0) | same heading 300 ms later | 900 ms | '
          '2100 ms |')
    print('|---|---|---|---|---|---|---|---|')
    kp = [f'{100.0 * keep[l][1] / keep[l][0]:.1f} %' for l in (19, 58, 134)]
    print(f'| {n} | {100.0 * still / n:.1f} % | {moving} | '
          f'{100.0 * to_c / moving:.1f} % | {100.0 * away_c / moving:.1f} % '
          f'| ' + ' | '.join(kp) + ' |')


def main(a):
    cmds = {'predictors': (cmd_predictors, 2), 'lagcomp': (cmd_lagcomp, 1),
            'lags': (cmd_lags, 1), 'tau': (cmd_tau, 2), 'led': (cmd_led, 1)}
    if len(a) >= 3 and a[1] == 'patterns':
        return cmd_patterns(*a[2:])
    if len(a) < 2 or a[1] not in cmds or len(a) - 2 != cmds[a[1]][1]:
        sys.exit(__doc__.split('usage: ')[1])
    fn = cmds[a[1]][0]
    if a[1] == 'tau':
        fn(a[2], float(a[3]))
    else:
        fn(*a[2:])


if __name__ == '__main__':
    main(sys.argv)
