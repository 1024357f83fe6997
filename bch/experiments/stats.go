package experiments

import (
	"math"
	"slices"
)

// Stat summarises a sample: its mean, median and standard deviation.
type Stat struct {
	Mean   float64 `json:"mean"`
	Median float64 `json:"median"`
	StdDev float64 `json:"stddev"`
	N      int     `json:"n"`
}

// Summarise returns xs' statistics (zero for no values); it sorts a copy.
func Summarise(xs []float64) Stat {
	if len(xs) == 0 {
		return Stat{}
	}
	s := slices.Clone(xs)
	slices.Sort(s)
	mean := 0.0
	for _, x := range s {
		mean += x
	}
	mean /= float64(len(s))
	v := 0.0
	for _, x := range s {
		v += (x - mean) * (x - mean)
	}
	med := s[len(s)/2]
	if len(s)%2 == 0 {
		med = 0.5 * (s[len(s)/2-1] + s[len(s)/2])
	}
	return Stat{Mean: mean, Median: med, StdDev: math.Sqrt(v / float64(len(s))), N: len(s)}
}
