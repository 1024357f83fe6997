package experiments

import (
	"context"
	"fmt"
	"math/rand/v2"
	"slices"

	"github.com/gloved/gloved/handmodel"
)

// Options size a run of the experiments.
type Options struct {
	Bodies []string `json:"bodies"` // HumanoidName, HandName, SkinName
	Poses  int      `json:"poses"`  // posed meshes per body (the paper: 200)
	Cases  int      `json:"cases"`  // colliding query cases (the paper: 500)
	Iters  int      `json:"iters"`  // passes over the cases (the paper: 10,000)
	Slides int      `json:"slides"` // minimum-distance tests (the paper: 500)
	Cells  int      `json:"cells"`  // raster cells per body height
	Seed   uint64   `json:"seed"`
	// Mesh is the skinned glTF hand the skin body is posed from.
	Mesh string `json:"mesh"`
}

// DefaultOptions are the paper's counts of poses and cases, with fewer
// query passes and slides (the paper's 10,000 and 500 would take minutes
// here: a default run takes about two), the WebXR generic hand as the
// skin, run from the repository's root.
var DefaultOptions = Options{
	Bodies: []string{HumanoidName, HandName, SkinName},
	Poses:  200, Cases: 500, Iters: 100, Slides: 100, Cells: 500, Seed: 1,
	Mesh: "handmodel/testdata/webxr-generic-hand/right.glb",
}

// Check reports options that cannot run.
func (o Options) Check() error {
	if len(o.Bodies) == 0 {
		return fmt.Errorf("no bodies: want some of %s, %s, %s", HumanoidName, HandName, SkinName)
	}
	for _, b := range o.Bodies {
		if !slices.Contains([]string{HumanoidName, HandName, SkinName}, b) {
			return fmt.Errorf("unknown body %q: want %s, %s or %s", b, HumanoidName, HandName, SkinName)
		}
	}
	for _, c := range []RangeError{
		{"poses", o.Poses, 2, MaxPoses}, {"cases", o.Cases, 1, MaxCases}, {"iters", o.Iters, 1, MaxIters},
		{"slides", o.Slides, 1, MaxSlides}, {"cells", o.Cells, 10, MaxCells},
	} {
		if c.V < c.Min || c.V > c.Max {
			return &c
		}
	}
	return nil
}

// The counts' upper bounds keep a run's memory under about 1 GB: every
// pose of a body is held, meshes and trees, about 1.8 MB a humanoid pose;
// a case and a slide are held too, a few hundred bytes each; the volume
// raster has cells² columns. Iters holds nothing but bounds the time.
const (
	MaxPoses  = 400
	MaxCases  = 100_000
	MaxIters  = 1_000_000
	MaxSlides = 100_000
	MaxCells  = 2000
)

// RangeError is a count of Options out of its range.
type RangeError struct {
	Name        string
	V, Min, Max int
}

func (e *RangeError) Error() string {
	return fmt.Sprintf("%s %d: want %d to %d", e.Name, e.V, e.Min, e.Max)
}

// BodyResult is one body's four experiments.
type BodyResult struct {
	Body         string       `json:"body"`
	Axis         [3]float64   `json:"axis"`
	Construction Construction `json:"construction"`
	Query        Query        `json:"query"`
	Distance     Distance     `json:"distance"`
	Volume       Volume       `json:"volume"`
}

// Result is a run: its options and each body's results.
type Result struct {
	Options Options      `json:"options"`
	Bodies  []BodyResult `json:"bodies"`
}

// Run poses each body and runs the four experiments on it. Everything
// but the times is a function of the options: every random draw comes
// from streams seeded by o.Seed. progress, if not nil, hears each step.
func Run(ctx context.Context, o Options, progress func(string)) (*Result, error) {
	if err := o.Check(); err != nil {
		return nil, fmt.Errorf("experiments: %w", err)
	}
	say := func(f string, a ...any) {
		if progress != nil {
			progress(fmt.Sprintf(f, a...))
		}
	}
	res := &Result{Options: o}
	for bi, name := range o.Bodies {
		stream := func(k uint64) *rand.Rand { return rand.New(rand.NewPCG(o.Seed, uint64(bi)<<8|k)) }
		say("%s: posing %d meshes", name, o.Poses)
		b, err := NewBody(name, o.Poses, o.Mesh, stream(0))
		if err != nil {
			return nil, err
		}
		br := BodyResult{Body: name, Axis: [3]float64(b.Axis.Mgl())}
		say("%s: building the trees", name)
		tr, cons, err := Construct(ctx, b)
		if err != nil {
			return nil, err
		}
		br.Construction = cons
		say("%s: drawing %d colliding cases", name, o.Cases)
		cases, draws, err := CollidingCases(ctx, tr, o.Cases, stream(1))
		if err != nil {
			return nil, fmt.Errorf("experiments: %s: %w", name, err)
		}
		say("%s: timing the queries, %d passes", name, o.Iters)
		if br.Query, err = QueryTimes(ctx, tr, cases, o.Iters); err != nil {
			return nil, err
		}
		br.Query.Draws = draws
		say("%s: sliding %d pairs", name, o.Slides)
		if br.Distance, err = Distances(ctx, b, tr, o.Slides, stream(2)); err != nil {
			return nil, err
		}
		say("%s: measuring volumes", name)
		if br.Volume, err = Volumes(ctx, b, tr, o.Cells); err != nil {
			return nil, err
		}
		res.Bodies = append(res.Bodies, br)
	}
	return res, nil
}

// NewBody poses n meshes of the named body; mesh is the skinned glTF of
// the skin body.
func NewBody(name string, n int, mesh string, r *rand.Rand) (*Body, error) {
	switch name {
	case HumanoidName:
		return HumanoidBody(n, r), nil
	case HandName:
		h, err := handmodel.New(handmodel.DefaultParams)
		if err != nil {
			return nil, fmt.Errorf("experiments: %w", err)
		}
		return HandBody(name, h, n, r)
	case SkinName:
		h, err := handmodel.New(handmodel.Params{Right: true, Mesh: mesh})
		if err != nil {
			return nil, fmt.Errorf("experiments: skin: %w", err)
		}
		return HandBody(name, h, n, r)
	}
	return nil, fmt.Errorf("experiments: unknown body %q", name)
}
