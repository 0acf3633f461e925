package bookform

// Texts are the form's words, for the tests.
var Texts = texts
