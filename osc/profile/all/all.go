package all

import (
	_ "github.com/gloved/gloved/osc/gloved" // gloved's own contract, in other coordinates
	_ "github.com/gloved/gloved/osc/openxr" // OpenXR's hand joints
	_ "github.com/gloved/gloved/osc/vmc"    // the VMC protocol's finger bones
	_ "github.com/gloved/gloved/osc/vrchat" // VRChat's avatar parameters
)
