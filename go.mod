module github.com/sycbuild/sycbuild

go 1.26.0

require (
	github.com/goccy/go-yaml v1.19.2
	github.com/klauspost/compress v1.20.3
	github.com/mattn/go-shellwords v1.0.16
)
