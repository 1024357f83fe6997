package experiments

import "math"

// SlopeFit is a least-squares line through one curve's linear portion.
type SlopeFit struct {
	Slope  float64 `json:"slope"`
	EpsMax float64 `json:"fit_eps_max"`
	EpsMin float64 `json:"fit_eps_min"`
	Points int     `json:"fit_points"`
}

// FitSlope fits log10(box tests) = a + slope·log10(eps) by least squares
// over one curve's linear portion: the gaps no larger than fitMax (at
// larger gaps the trees part near the root and counts are tiny) whose count
// is still below plateau times the curve's largest count (past that the
// tree has been traversed to its leaves and the curve levels off).
func FitSlope(rows []ProximityRow, count func(ProximityRow) int, fitMax, plateau float64) SlopeFit {
	top := 0
	for _, r := range rows {
		top = max(top, count(r))
	}
	var xs, ys []float64
	f := SlopeFit{}
	for _, r := range rows {
		n := count(r)
		if r.Eps > fitMax || n < 1 || float64(n) > plateau*float64(top) {
			continue
		}
		if f.Points == 0 {
			f.EpsMax = r.Eps
		}
		f.EpsMin = r.Eps
		f.Points++
		xs = append(xs, math.Log10(r.Eps))
		ys = append(ys, math.Log10(float64(n)))
	}
	f.Slope = slope(xs, ys)
	return f
}

// slope is the least-squares slope of y on x; NaN-free: 0 for fewer than
// two distinct x.
func slope(x, y []float64) float64 {
	n := float64(len(x))
	if n < 2 {
		return 0
	}
	var sx, sy, sxx, sxy float64
	for i := range x {
		sx, sy, sxx, sxy = sx+x[i], sy+y[i], sxx+x[i]*x[i], sxy+x[i]*y[i]
	}
	d := n*sxx - sx*sx
	if d == 0 {
		return 0
	}
	return (n*sxy - sx*sy) / d
}
