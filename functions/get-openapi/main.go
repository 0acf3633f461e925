// Command get-openapi is the Lambda function behind GET /api/v1/openapi.json
// and GET /api/v1/openapi.yaml: the JSON API's OpenAPI document. It reads
// nothing from the table, so it builds no DynamoDB client and its role
// grants no DynamoDB action.
//
// Environment: none.
package main

import (
	"github.com/aws/aws-lambda-go/lambda"

	"github.com/doorstep/doorstep/pkg/httpapi"
	"github.com/doorstep/doorstep/pkg/lambdaenv"
)

func main() {
	lambda.Start(newHandler())
}

func newHandler() lambdaenv.HTTPHandler {
	return lambdaenv.HTTP(httpapi.NewOpenAPI(lambdaenv.Logger()))
}
