package all

import (
	_ "github.com/gloved/gloved/contact/convex" // convex: GJK and EPA
	_ "github.com/gloved/gloved/contact/mesh"   // solid and surface: non-convex meshes
)
