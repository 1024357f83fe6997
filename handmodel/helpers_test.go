package handmodel

import (
	"github.com/gloved/gloved/geom"
)

type geomTransform = geom.Transform

func identity() geom.Transform { return geom.Identity() }

func finiteTransform(x geom.Transform) bool {
	for _, v := range x.R {
		if v != v || v > 1e300 || v < -1e300 {
			return false
		}
	}
	return x.T.Finite()
}
