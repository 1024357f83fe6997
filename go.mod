module github.com/gloved/gloved

go 1.26

require (
	github.com/go-gl/mathgl v1.2.0
	github.com/golang/geo v0.0.0-20180826223333-635502111454
	github.com/markus-wa/quickhull-go/v2 v2.2.0
)

require (
	github.com/hschendel/stl v1.0.4 // indirect
	github.com/qmuntal/gltf v0.28.0 // indirect
)
