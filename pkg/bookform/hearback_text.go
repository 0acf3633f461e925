package bookform

// hearBackTexts are the words of the contact step's question of how the
// person hears back, kept apart from text.go's; init adds them to texts.
// hear_no_way shows while neither way is chosen (the style sheet hides it
// once an e-mail is typed or texts are ticked; a browser without :has()
// always shows it, and it reads true either way). Where the deployment
// sends no texts, the question offers e-mail alone (the _email words).
var hearBackTexts = map[string]map[string]string{
	"en": {
		"hear_question": "How should the business tell you its answer? By e-mail, by text, both, or neither.",
		"hear_no_way":   "With no e-mail and no texts, nobody will write to you: the next page shows the business's answer, so keep it, and the business may call you.",
		// Where the deployment sends no texts (booking.Delivery.TextsOff).
		"hear_question_email": "How should the business tell you its answer? By e-mail, or not at all.",
		"hear_no_way_email":   "With no e-mail, nobody will write to you: the next page shows the business's answer, so keep it, and the business may call you.",
	},
	"es": {
		"hear_question":       "¿Cómo debe darle el negocio su respuesta? Por correo electrónico, por mensaje de texto, ambos o ninguno.",
		"hear_no_way":         "Sin correo y sin mensajes de texto, nadie le escribirá: la página siguiente muestra la respuesta del negocio, así que guárdela, y el negocio puede llamarle.",
		"hear_question_email": "¿Cómo debe darle el negocio su respuesta? Por correo electrónico, o de ninguna forma.",
		"hear_no_way_email":   "Sin correo, nadie le escribirá: la página siguiente muestra la respuesta del negocio, así que guárdela, y el negocio puede llamarle.",
	},
}

func init() {
	for lang, words := range hearBackTexts {
		for key, text := range words {
			texts[lang][key] = text
		}
	}
}
