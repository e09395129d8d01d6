"""svgplot.py — the plots of bench/tables.py as plain SVG: axis ranges
that fit the data, and the server plot (bench/http.sh and bench/echo.sh)."""
import math

COLOURS = {"sep": "#1f77b4", "cop": "#d62728", "k11": "#2ca02c",
           "glibc": "#7f7f7f", "pth": "#9467bd", "loop": "#ff7f0e"}


def nice_top(v):
    """The smallest 'round' axis end at or above v (1, 1.2, 1.5, 2, 2.5,
    3, 4, 5, 6, 8 times a power of ten), so the data fill the plot."""
    if v <= 0:
        return 1.0
    e = 10 ** math.floor(math.log10(v))
    return next(m * e for m in (1, 1.2, 1.5, 2, 2.5, 3, 4, 5, 6, 8, 10) if m * e >= v * 0.9999)


def fmt(v):
    if v >= 1e6:
        return "%gM" % (v / 1e6)
    if v >= 1e3:
        return "%gk" % (v / 1e3)
    return "%g" % float("%.3g" % v)


def text(x, y, s, anchor="start", extra=""):
    return '<text x="%.1f" y="%.1f" text-anchor="%s"%s>%s</text>' % (x, y, anchor, extra, s)


def panel(o, box, title, xs, series, ylabel, xlabel, logy=False):
    """A line plot in box (left, top, width, height): x on a log scale at
    the values xs, series a list of (key, label, [(x, y)]); y from 0 (or,
    logy, from the lowest decade) to a round value above the data."""
    L, T, W, H = box
    ys = [y for _, _, pts in series for _, y in pts if y is not None and y > 0] or [1]
    if logy:
        lo = 10 ** math.floor(math.log10(min(ys)))
        hi = 10 ** math.ceil(math.log10(max(ys)))
        hi = hi * 10 if hi == lo else hi
        Y = lambda v: T + H - (math.log10(v) - math.log10(lo)) / (math.log10(hi) - math.log10(lo)) * H
        ticks = [lo * 10 ** i for i in range(int(round(math.log10(hi / lo))) + 1)]
    else:
        top = nice_top(max(ys) * 1.05)
        Y = lambda v: T + H - v / top * H
        ticks = [top * i / 5 for i in range(6)]
    x0, x1 = math.log10(min(xs)), math.log10(max(xs))
    X = lambda v: L + ((math.log10(v) - x0) / (x1 - x0) * W if x1 > x0 else W / 2)
    o.append(text(L + W / 2, T - 10, title, "middle", ' font-size="14"'))
    for v in ticks:
        o.append('<line x1="%d" y1="%.1f" x2="%d" y2="%.1f" stroke="#ddd"/>' % (L, Y(v), L + W, Y(v)))
        o.append(text(L - 6, Y(v) + 4, fmt(v), "end"))
    for v in xs:
        o.append('<line x1="%.1f" y1="%d" x2="%.1f" y2="%d" stroke="#ddd"/>' % (X(v), T, X(v), T + H))
        o.append(text(X(v), T + H + 16, fmt(v), "middle"))
    o.append('<rect x="%d" y="%d" width="%d" height="%d" fill="none" stroke="black"/>' % (L, T, W, H))
    o.append(text(L + W / 2, T + H + 34, xlabel, "middle"))
    o.append(text(L - 52, T + H / 2, ylabel, "middle",
                  ' transform="rotate(-90 %.1f %.1f)"' % (L - 52, T + H / 2)))
    ly = T + 14
    for key, label, pts in series:
        c = COLOURS.get(key, "black")
        pts = [(x, y) for x, y in pts if y is not None and y > 0]
        if pts:
            o.append('<polyline fill="none" stroke="%s" stroke-width="2" points="%s"/>' % (
                c, " ".join("%.1f,%.1f" % (X(x), Y(y)) for x, y in pts)))
            o.extend('<circle cx="%.1f" cy="%.1f" r="3" fill="%s"/>' % (X(x), Y(y), c) for x, y in pts)
        o.append('<rect x="%d" y="%d" width="14" height="4" fill="%s"/>' % (L + 10, ly - 4, c))
        o.append(text(L + 30, ly + 2, label + ("" if pts else " (no data)")))
        ly += 16


def bars(o, box, title, rows, xlabel):
    """Horizontal bars: rows a list of (key, label, value or None)."""
    L, T, W, H = box
    vals = [v for _, _, v in rows if v] or [1]
    top = nice_top(max(vals) * 1.05)
    h = H / max(len(rows), 1)
    o.append(text(L + W / 2, T - 10, title, "middle", ' font-size="14"'))
    for i in range(6):
        x = L + W * i / 5
        o.append('<line x1="%.1f" y1="%d" x2="%.1f" y2="%d" stroke="#ddd"/>' % (x, T, x, T + H))
        o.append(text(x, T + H + 16, fmt(top * i / 5), "middle"))
    for i, (key, label, v) in enumerate(rows):
        y = T + i * h
        o.append(text(L - 6, y + h / 2 + 4, label, "end"))
        if v:
            o.append('<rect x="%d" y="%.1f" width="%.1f" height="%.1f" fill="%s"/>' % (
                L, y + h * 0.15, v / top * W, h * 0.7, COLOURS.get(key, "#1f77b4")))
        else:
            o.append(text(L + 6, y + h / 2 + 4, "not run", extra=' fill="#555"'))
    o.append('<rect x="%d" y="%d" width="%d" height="%d" fill="none" stroke="black"/>' % (L, T, W, H))
    o.append(text(L + W / 2, T + H + 34, xlabel, "middle"))


def server_svg(path, http, echo):
    """http: (conns, [(key, label, {conn: (rps, p99 seconds)})]) or None;
    echo: (connections, [(key, label, round trips/s or None)]) or None."""
    W = 760
    o = []
    y = 40
    if http:
        conns, builds = http
        panel(o, (110, y, W - 140, 220), "HTTP server (bench/http.sh): requests/s, median of trials",
              conns, [(k, lab, [(n, d.get(n, (None, None))[0]) for n in conns]) for k, lab, d in builds],
              "requests/s", "connections (log scale)")
        y += 300
        panel(o, (110, y, W - 140, 220), "HTTP server: p99 latency (ms, log scale)",
              conns, [(k, lab, [(n, (d.get(n, (None, None))[1] or 0) * 1e3) for n in conns])
                      for k, lab, d in builds],
              "p99 latency (ms)", "connections (log scale)", logy=True)
        y += 300
    if echo:
        n, rows = echo
        bars(o, (250, y, W - 280, 24 * len(rows)),
             "Echo (bench/echo.sh): round trips/s at %s connections, median of rounds" % n,
             rows, "round trips/s")
        y += 24 * len(rows) + 60
    if not o:
        o.append(text(W / 2, 60, "bench/http.sh and bench/echo.sh did not run", "middle"))
        y = 100
    head = ['<svg xmlns="http://www.w3.org/2000/svg" width="%d" height="%d" viewBox="0 0 %d %d" '
            'font-family="sans-serif" font-size="12">' % (W, y, W, y),
            '<rect width="100%" height="100%" fill="white"/>']
    with open(path, "w") as f:
        f.write("\n".join(head + o + ["</svg>"]) + "\n")
