package handmodel

// Curls measure how far each finger (thumb, index, middle, ring,
// little) is closed: the sum of its flexion angles (each taken from 0)
// over the sum of their upper limits, 0 open to 1 closed. The flexion
// joints are those a glove's curl bends and a force-feedback glove's
// string pulls on: the thumb's MCP and IP, a finger's MCP, PIP and DIP.
type Curls struct {
	flex [5][]Joint
	max  [5]float64
}

// NewCurls returns the curl measure of a hand whose joints have limits.
func NewCurls(limits *[NumJoints]Limit) Curls {
	var c Curls
	c.flex[0] = []Joint{ThumbMCP, ThumbIP}
	for f := 1; f < 5; f++ {
		mcp := IndexMCP + Joint(4*(f-1))
		c.flex[f] = []Joint{mcp, mcp + 1, mcp + 2}
	}
	for f, js := range c.flex {
		for _, j := range js {
			c.max[f] += limits[j].Max
		}
	}
	return c
}

// Curl returns finger f's curl (0 thumb to 4 little) of the joint angles,
// 0 to 1; 0 for a finger whose flexion has no range or angles that are
// not finite.
func (c *Curls) Curl(f int, joints []float64) float64 {
	if f < 0 || f >= len(c.flex) || !(c.max[f] > 0) {
		return 0
	}
	sum := 0.0
	for _, j := range c.flex[f] {
		if int(j) < len(joints) {
			sum += max(0, joints[j])
		}
	}
	if r := sum / c.max[f]; r >= 0 {
		return min(1, r)
	}
	return 0
}

// Joints returns finger f's flexion joints (0 thumb to 4 little), only
// to be read.
func (c *Curls) Joints(f int) []Joint { return c.flex[f] }
