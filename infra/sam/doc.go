// Package sam holds no code: its test keeps template.yaml, the Makefile's
// build targets and the functions/ folders in step, so that sam build and sam
// deploy do what the code expects without the sam CLI or an AWS account.
package sam
