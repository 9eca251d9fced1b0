"""Pairwise playback spread, shared by the SDK and browser benchmarks."""


def pairwise_spread(series, window_ms, skip_wall=None, after_ms=3000):
    """series: one list per client of (wall ms, entry id, playback error ms),
    in time order. For each report of one client, the other client's latest
    report within `window_ms` on the same entry gives a pair; the spread is
    the difference of their errors (errors are already referred to the true
    clock, so reports a little apart in time still compare).

    Returns (all spreads, spreads in the `after_ms` after `skip_wall`)."""
    spread, after_skip = [], []
    for a in range(len(series)):
        for b in range(a + 1, len(series)):
            others, j = series[b], 0
            if not others:
                continue
            for t, entry, error in series[a]:
                while j + 1 < len(others) and others[j + 1][0] <= t:
                    j += 1
                tb, entry_b, error_b = others[j]
                if entry_b != entry or abs(tb - t) > window_ms:
                    continue
                value = abs(error - error_b)
                spread.append(value)
                if skip_wall and skip_wall <= t <= skip_wall + after_ms:
                    after_skip.append(value)
    return spread, after_skip
