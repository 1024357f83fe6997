package experiments

import (
	"context"
	"fmt"
	"math"
	"math/rand/v2"

	"github.com/gloved/gloved/traversal"
)

// Case is one colliding test case of the query experiment: pose A where
// it was posed, pose B placed by P.
type Case struct {
	A, B int
	P    Placement
}

// maxAttemptsPerCase bounds the draws for one colliding case: a body
// whose random placements almost never collide is an error, not a hang.
const maxAttemptsPerCase = 1000

// CollidingCases makes n test cases as the paper's section 4.1 does:
// two random poses, B turned by a random angle about the axis and moved
// by a random translation over the ground plane, drawn again until the
// exact test (the OBB tree of every triangle, to the first meeting
// triangle pair) finds a collision. The translation is uniform over the
// disk of placements where the two single cylinders overlap: outside it
// nothing collides. It returns the cases and the draws made.
func CollidingCases(ctx context.Context, tr *Trees, n int, r *rand.Rand) ([]Case, int, error) {
	col := traversal.Collider{FirstContact: true}
	var cases []Case
	attempts := 0
	for len(cases) < n {
		if attempts%64 == 0 {
			if err := ctx.Err(); err != nil {
				return nil, attempts, err
			}
		}
		if attempts >= maxAttemptsPerCase*n {
			return nil, attempts, fmt.Errorf("experiments: %d colliding cases in %d draws", len(cases), attempts)
		}
		attempts++
		c := Case{A: r.IntN(len(tr.OBB)), B: r.IntN(len(tr.OBB))}
		c.P = overlapping(tr, c.A, c.B, r)
		if col.Collide(tr.OBB[c.A], tr.OBB[c.B], tr.Frame.Transform(c.P)) > 0 {
			cases = append(cases, c)
		}
	}
	return cases, attempts, nil
}

// overlapping draws a random turn of pose b and a move that puts its
// single cylinder's centre uniformly in the disk where it overlaps pose
// a's.
func overlapping(tr *Trees, a, b int, r *rand.Rand) Placement {
	ca, cb := tr.Single[a].Nodes[0].Circle, tr.Single[b].Nodes[0].Circle
	p := Placement{Theta: 2 * math.Pi * r.Float64()}
	s, c := math.Sincos(p.Theta)
	rho := (ca.Radius + cb.Radius) * math.Sqrt(r.Float64())
	phi := 2 * math.Pi * r.Float64()
	p.U = ca.X + rho*math.Cos(phi) - (c*cb.X - s*cb.Y)
	p.V = ca.Y + rho*math.Sin(phi) - (s*cb.X + c*cb.Y)
	return p
}
