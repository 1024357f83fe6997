module github.com/gloved/gloved

go 1.26.0

require (
	github.com/creack/pty v1.1.24
	github.com/go-gl/mathgl v1.2.0
	github.com/golang/geo v0.0.0-20180826223333-635502111454
	github.com/hschendel/stl v1.0.4
	github.com/markus-wa/quickhull-go/v2 v2.2.0
	github.com/qmuntal/gltf v0.28.0
	github.com/tarm/serial v0.0.0-20180830185346-98f6abe2eb07
	golang.org/x/sys v0.49.0
)

require (
	github.com/BurntSushi/toml v1.6.0 // indirect
	github.com/hypebeast/go-osc v0.0.0-20220308234300-cec5a8a1e5f5 // indirect
)
