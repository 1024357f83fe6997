package chains

import (
	"errors"
	"fmt"
	"slices"
)

// Build sweeps each region with the disk of rays and places its spheres
// (section 3), then readies them to follow the mesh (section 5.1). parent
// is the links' tree (-1 for a root): spheres on one link or on a link and
// its parent never count as overlapping, as adjacent spheres in the paper.
func Build(m *Mesh, regions []Region, parent []int32, p Params) (*Set, error) {
	if p.Rays < 8 || !(p.Step > 0) || !(p.Overlap >= 0 && p.Overlap < 1) || p.Use < 0 || p.Use >= NumMethods {
		return nil, fmt.Errorf("chains: params %+v: want at least 8 rays, a positive step, an overlap in [0, 1) and a known fit", p)
	}
	if len(parent) > maxLinks {
		return nil, fmt.Errorf("chains: %d links, at most %d", len(parent), maxLinks)
	}
	s := &Set{tris: m.Tris, use: p.Use}
	for ri := range regions {
		reg := &regions[ri]
		if len(reg.Axis) < 2 || len(reg.Links) != len(reg.Axis)-1 {
			return nil, fmt.Errorf("chains: region %s: an axis of %d points with %d links: want 2 or more points and a link per segment", reg.Name, len(reg.Axis), len(reg.Links))
		}
		for _, l := range reg.Links {
			if l < 0 || int(l) >= len(parent) {
				return nil, fmt.Errorf("chains: region %s: link %d is not in the tree", reg.Name, l)
			}
		}
		levels := sweep(m, reg, p)
		sides := 1
		if reg.Wide {
			sides = 2
		}
		for sd := range sides {
			s.placeSide(m, ri, reg, levels, sd, p)
		}
	}
	if len(s.Fits) == 0 {
		return nil, errors.New("chains: no sphere fits inside the mesh: are the axes inside it?")
	}
	s.exclude(parent)
	if err := s.ready(m); err != nil {
		return nil, err
	}
	return s, nil
}

// placeSide places one side's sequence of spheres along the levels: the
// first where the disk is inside the region, then each next where it
// overlaps the last by the share p.Overlap of their radii.
func (s *Set) placeSide(m *Mesh, ri int, reg *Region, levels []level, sd int, p Params) {
	rays := side(p.Rays, reg.Wide, sd)
	var at []int // the levels that hold a sphere
	var spheres []Sphere
	for li := range levels {
		l := &levels[li]
		if l.hitShare(rays) < minHitShare {
			continue
		}
		sp := j1(m, reg.Tris, l, rays, !reg.Wide)
		if sp.R < p.Step {
			continue
		}
		if n := len(spheres); n > 0 {
			last := spheres[n-1]
			if sp.C.Sub(last.C).Len() < (1-p.Overlap)*(sp.R+last.R) {
				continue
			}
		}
		at, spheres = append(at, li), append(spheres, sp)
	}
	for i, li := range at {
		// The surrounding region: the triangles its side's rays meet on
		// the levels nearer to it than to its neighbours.
		lo, hi := 0, len(levels)
		if i > 0 {
			lo = (at[i-1] + li + 1) / 2
		}
		if i+1 < len(at) {
			hi = (li + at[i+1] + 1) / 2
		}
		l := &levels[li]
		f := Fit{Region: ri, Side: sd, Link: l.link, Origin: l.o, Normal: l.n,
			Verts: regionVerts(m, levels[lo:hi], rays), Pivots: pivots(l, rays, reg.Wide)}
		f.Sphere[J1] = spheres[i]
		f.Sphere[J2] = j2(m, f.Verts)
		f.Sphere[J1Adjusted] = adjust(m, f.Verts, spheres[i], l.u, l.v)
		for k := range NumMethods {
			f.F[k] = fStats(m, f.Verts, f.Sphere[k])
		}
		s.Fits = append(s.Fits, f)
	}
}

// regionVerts returns the vertices of the triangles the rays meet on
// levels, each once.
func regionVerts(m *Mesh, levels []level, rays []int) []int32 {
	var out []int32
	for li := range levels {
		for _, k := range rays {
			if t := levels[li].tri[k]; t >= 0 {
				out = append(out, m.Tris[t][:]...)
			}
		}
	}
	slices.Sort(out)
	return slices.Compact(out)
}

// pivots picks the four polygons a sphere follows: those its level's
// rays meet a quarter turn apart (a wide side's at its eighths), each the
// nearest ray that met the surface.
func pivots(l *level, rays []int, wide bool) [4]int32 {
	var out [4]int32
	for i := range 4 {
		at := len(rays) * i / 4
		if wide {
			at = len(rays) * (2*i + 1) / 8
		}
		for d := 0; d < len(rays); d++ {
			k := rays[(at+d)%len(rays)]
			if l.tri[k] >= 0 {
				out[i] = l.tri[k]
				break
			}
		}
	}
	return out
}
