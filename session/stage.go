package session

// Stage indexes the pipeline's stages.
type Stage int

// The stages, in order; StageOSC is timed by whoever sends the frame.
const (
	StagePose     Stage = iota // calibration and forward kinematics
	StageRefit                 // CAB refit
	StageTraverse              // the hand's hierarchy against each object's tree: the candidate pairs and their fronts (traversal.Candidates)
	StageNarrow                // each candidate's exact answer by its object's contact method (contact.Scene.Solve)
	StageSelf                  // self-contact: sphere chains, exact confirmation, pinch and fist
	StageHands                 // contacts with other hands (HandPairs), timed by the caller
	StageOSC                   // encoding and sending the bundle
	NumStages
)

var stageNames = [NumStages]string{"pose", "refit", "traverse", "narrow", "self", "hands", "osc"}

func (s Stage) String() string { return stageNames[s] }
