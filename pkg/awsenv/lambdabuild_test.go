//go:build nethttpomithttp2

package awsenv_test

// lambdaBuild: the test runs with the Lambda binaries' tags.
const lambdaBuild = true
