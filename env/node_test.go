package env

import (
	"errors"
	"math"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/gloved/gloved/geom"
)

// TestPackedBoxesHoldTheirTrianglesAsTightlyAsWholeOnes: a tree built with
// packed boxes has the same nodes and children as one with whole boxes,
// and 48 bytes a node that keeps its box rather than 128, 8 (and two bits)
// one over two triangles that keeps none. Each packed box, decoded, has
// orthonormal axes, holds every vertex below it with no tolerance at all
// (measured as the box was packed), and is no looser than the whole box
// by more than a millionth of its size and distance from the tree's
// origin; a box made for two triangles holds them as surely, and none of
// its extents is beyond the whole box's half-diagonal. On spheres, soups,
// collapsed and repeated triangles, a terrain far from the world's
// origin, and long slivers, for every fit.
func TestPackedBoxesHoldTheirTrianglesAsTightlyAsWholeOnes(t *testing.T) {
	r := rand.New(rand.NewPCG(12, 12))
	degenerate := Soup("d", r, 300, 1, 0.5)
	for i := 0; i < len(degenerate.Tris); i += 3 {
		degenerate.Verts[degenerate.Tris[i][2]] = degenerate.Verts[degenerate.Tris[i][1]]
	}
	dup := Soup("dup", r, 1, 1, 0.5)
	for range 40 {
		dup.Tris = append(dup.Tris, dup.Tris[0])
		dup.Object = append(dup.Object, 0)
	}
	far := Terrain("far", 40, func(x, z float64) float64 { return 0.03 * math.Sin(40*x) * math.Cos(30*z) })
	for i := range far.Verts {
		far.Verts[i] = far.Verts[i].Add(geom.Vec3{X: 4e5, Y: -120, Z: 7e5})
	}
	slivers := Soup("slivers", r, 400, 1, 0.02)
	for i := range slivers.Verts {
		if i%3 == 0 {
			slivers.Verts[i].X *= 40
		}
	}
	// Nearly collinear triangles (their area 1e-11 to 1e-9 of the
	// product of their edges): a cross product's normal is off square
	// with the edge by up to 1e-4 there.
	flat := Soup("flat", r, 400, 1, 0.5)
	for i, tri := range flat.Tris {
		a, b := flat.Verts[tri[0]], flat.Verts[tri[1]]
		off := geom.Vec3{X: r.NormFloat64(), Y: r.NormFloat64(), Z: r.NormFloat64()}.Mul(math.Pow(10, -11+2*r.Float64()) * b.Sub(a).Len())
		flat.Verts[tri[2]] = a.Add(b.Sub(a).Mul(0.3 + 0.4*float64(i%2))).Add(off)
	}
	meshes := map[string]*Mesh{
		"sphere":     Sphere("ball", geom.Vec3{X: 1, Y: 2, Z: 3}, 2, 4),
		"soup":       Soup("s", r, 2000, 10, 1),
		"degenerate": degenerate,
		"duplicates": dup,
		"far":        far,
		"slivers":    slivers,
		"flat":       flat,
	}
	for name, m := range meshes {
		for _, fit := range fitModes {
			whole, err := Build(m, BuildOptions{Fit: fit, Layout: LayoutFull})
			if err != nil {
				t.Fatal(err)
			}
			packed, err := Build(m, BuildOptions{Fit: fit, Layout: LayoutPacked})
			if err != nil {
				t.Fatal(err)
			}
			if whole.Packed() || !packed.Packed() {
				t.Fatalf("%s: packed %v and %v, want false and true", name, whole.Packed(), packed.Packed())
			}
			if !slices.Equal(whole.Nodes, packed.Nodes) || whole.Root != packed.Root || whole.Depth != packed.Depth {
				t.Fatalf("%s fit %d: the packed tree's nodes differ", name, fit)
			}
			pairs := 0
			for _, n := range packed.Nodes {
				if n.Child[0] < 0 && n.Child[1] < 0 {
					pairs++
				}
			}
			if name == "sphere" && 10*pairs < 3*len(packed.Nodes) {
				t.Fatalf("sphere: %d of %d nodes over two triangles, want about two in five", pairs, len(packed.Nodes))
			}
			blocks := (len(packed.Nodes) + 63) / 64
			if pb, _ := packed.Bytes(); pb != 48*(len(packed.Nodes)-pairs)+8*pairs+12*blocks {
				t.Fatalf("%s: a packed tree takes %d bytes for %d nodes, %d over two triangles, want 48 a node with a box, 8 without, and 12 for each 64", name, pb, len(packed.Nodes), pairs)
			}
			if wb, _ := whole.Bytes(); wb != 128*len(whole.Nodes) {
				t.Fatalf("%s: a whole tree takes %d bytes for %d nodes, want 128 a node", name, wb, len(whole.Nodes))
			}
			if err := packed.Validate(); err != nil {
				t.Fatalf("%s fit %d: %v", name, fit, err)
			}
			for i := range packed.Nodes {
				checkPacked(t, packed, whole, int32(i), name)
			}
		}
	}
}

// checkPacked checks packed node i against the whole tree's.
func checkPacked(t *testing.T, packed, whole *Tree, i int32, name string) {
	t.Helper()
	p, w := packed.Box(i), whole.Box(i)
	for a := range 3 {
		for b := range 3 {
			want := 0.0
			if a == b {
				want = 1
			}
			if d := p.Axis(a).Dot(p.Axis(b)); math.Abs(d-want) > 2e-15 {
				t.Fatalf("%s node %d: axes %d and %d dot to %v", name, i, a, b, d)
			}
		}
	}
	var under []int32
	var st []int32
	st = append(st, i)
	for len(st) > 0 {
		r := st[len(st)-1]
		st = st[:len(st)-1]
		if k, ok := Leaf(r); ok {
			under = append(under, k)
			continue
		}
		st = append(st, packed.Nodes[r].Child[:]...)
	}
	for _, k := range under {
		for _, v := range packed.Mesh.Tris[k] {
			d := packed.Mesh.Verts[v].Sub(p.Center)
			for a := range 3 {
				if math.Abs(d.Dot(p.Axis(a))) > p.Half.At(a) {
					t.Fatalf("%s node %d: vertex %d is %v out along axis %d, beyond %v", name, i, v, math.Abs(d.Dot(p.Axis(a))), a, p.Half.At(a))
				}
			}
		}
	}
	slack := 1e-6 * (w.Size() + w.Center.Sub(packed.Origin).Len())
	if c := packed.Nodes[i].Child; c[0] < 0 && c[1] < 0 {
		for a := range 3 {
			if p.Half.At(a) > w.Half.Len()+slack {
				t.Fatalf("%s node %d: a pair's half-extent %d is %v, beyond the whole box's half-diagonal %v", name, i, a, p.Half.At(a), w.Half.Len())
			}
		}
		return
	}
	for a := range 3 {
		if p.Half.At(a) > w.Half.At(a)+slack {
			t.Fatalf("%s node %d: packed half-extent %d is %v, the whole box's %v", name, i, a, p.Half.At(a), w.Half.At(a))
		}
	}
}

// TestBuildRefusesVerticesBeyondWhatItsBoxesHold: a vertex that is not
// finite or lies beyond MaxBuildCoordinate is refused, with the error
// naming the bound, rather than built into boxes that cannot hold it.
func TestBuildRefusesVerticesBeyondWhatItsBoxesHold(t *testing.T) {
	for _, bad := range []float64{math.NaN(), math.Inf(1), -2 * MaxBuildCoordinate} {
		m := Soup("s", rand.New(rand.NewPCG(1, 1)), 5, 1, 0.5)
		m.Verts[m.Tris[3][1]].Y = bad
		if _, err := Build(m, BuildOptions{}); !errors.Is(err, errFarVertex) {
			t.Errorf("a vertex at y = %v: %v", bad, err)
		}
	}
}

// TestABoxCacheGivesEachNodesBoxWhateverTheOrder: boxes asked of a packed
// tree through a cache, in a random order with repeats and with nodes
// that share a slot, are each node's own box, also after the cache moves
// to another tree; a tree that keeps its boxes whole gives its own and
// the cache holds nothing.
func TestABoxCacheGivesEachNodesBoxWhateverTheOrder(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 4))
	a, err := Build(Sphere("a", geom.Vec3{}, 1, 5), BuildOptions{Layout: LayoutPacked})
	if err != nil {
		t.Fatal(err)
	}
	b, err := Build(Soup("b", r, 3000, 1, 0.2), BuildOptions{Layout: LayoutPacked})
	if err != nil {
		t.Fatal(err)
	}
	if len(a.Nodes) < 2*boxCacheSlots {
		t.Fatalf("%d nodes: too few to share slots", len(a.Nodes))
	}
	var c BoxCache
	for _, tree := range []*Tree{a, b, a} {
		for range 20000 {
			i := int32(r.IntN(len(tree.Nodes)))
			if r.IntN(4) == 0 { // a node of the same slot
				i = (i + boxCacheSlots) % int32(len(tree.Nodes))
			}
			if got, want := *tree.BoxIn(i, &c), tree.Box(i); got != want {
				t.Fatalf("node %d: cached %v, want %v", i, got, want)
			}
		}
	}
	whole, err := Build(Sphere("w", geom.Vec3{}, 1, 3), BuildOptions{Layout: LayoutFull})
	if err != nil {
		t.Fatal(err)
	}
	var none BoxCache
	if got := whole.BoxIn(7, &none); got != &whole.boxes[7] || none.Bytes() != 0 {
		t.Fatalf("a whole tree's box came from the cache (%d bytes)", none.Bytes())
	}
}

// TestPackedTreesFindTheSameSelfCrossing: the self-crossing check, which
// descends a tree against itself through its boxes, says the same on
// packed trees as on whole ones, and a crossing it names is two
// triangles that cross: two boxes laid into each other, a soup of
// crossing triangles, and a torus and a sphere that cross nowhere.
func TestPackedTreesFindTheSameSelfCrossing(t *testing.T) {
	crossed := Box("a", geom.Vec3{}, geom.Vec3{X: 1, Y: 1, Z: 1})
	crossed.Append(Box("b", geom.Vec3{X: 0.5, Y: 0.3, Z: 0.2}, geom.Vec3{X: 1, Y: 1, Z: 1}))
	for name, c := range map[string]struct {
		m       *Mesh
		crosses bool
	}{
		"crossed boxes": {crossed, true},
		"soup":          {Soup("s", rand.New(rand.NewPCG(5, 6)), 3000, 1, 0.2), true},
		"torus":         {Torus("t", geom.Vec3{}, 1, 0.3, 48, 24), false},
		"sphere":        {Sphere("s", geom.Vec3{}, 1, 4), false},
	} {
		for _, layout := range []Layout{LayoutFull, LayoutPacked} {
			tree, err := Build(c.m, BuildOptions{Layout: layout})
			if err != nil {
				t.Fatal(err)
			}
			a, b, ok := tree.SelfCrossing()
			if ok != c.crosses {
				t.Errorf("%s, layout %d: crosses %v, want %v", name, layout, ok, c.crosses)
			}
			if ok && !geom.TrianglesCross(c.m.Triangle(int(a)), c.m.Triangle(int(b))) {
				t.Errorf("%s, layout %d: triangles %d and %d do not cross", name, layout, a, b)
			}
		}
	}
}
